// gsched: Verilator 5.006 simulation of the Yosys front-end probes (docs/area-timing.md, "Yosys 0.55
// (yowasp) evaluation"): every ok_o must be 1 on random inputs, i.e. the probes expect what
// SystemVerilog defines. Built from the repository root with
//   $ verilator --binary --timing -Wno-fatal -Wno-WIDTH --top-module probe_tb -o probe_tb
//       --Mdir build/probe_tb rtl/gs_pkg.sv constraints/yosys055_probe/probe_*.sv
// and run as build/probe_tb/probe_tb.
module probe_tb;
  logic [8*145-1:0] flat; logic [8*8-1:0] ids; logic [2:0] idx; logic [7:0] a, wk;
  logic ok_whole, ok_arr, ok_dyn, ok_imp, ok_impb, ok_par, ok_ret, ok_ins, ok_cast, ok_bt;
  logic [8*145-1:0] fo; logic [31:0] bits; logic [7:0] vo, ko, ko2, so; gs_pkg::ksrt_entry_t eo;
  probe_packed_whole u0 (.flat_i(flat), .flat_o(fo), .ok_o(ok_whole));
  probe_packed_array u1 (.flat_i(flat), .ids_flat_i(ids), .bits_o(bits), .valid_o(vo), .ok_o(ok_arr));
  probe_dyn_member   u2 (.flat_i(flat), .idx_i(idx), .wr_kernel_i(wk), .kernel_o(ko), .ok_o(ok_dyn));
  probe_import       u3 (.e_i(flat[144:0]), .e_o(eo), .kernel_o(ko2), .ok_o(ok_imp));
  probe_import_body  u4 (.a_i(a), .ok_o(ok_impb));
  probe_param_ones   u5 (.set_o(so), .ok_o(ok_par));
  probe_return       u6 (.a_i(a), .ok_o(ok_ret));
  probe_inside       u7 (.a_i(a), .ok_o(ok_ins));
  probe_cast         u8 (.a_i(a), .ok_o(ok_cast));
  probe_bits_type    u9 (.ok_o(ok_bt));
  int bad = 0;
  initial begin
    for (int n = 0; n < 2000; n++) begin
      for (int w = 0; w < 8*145; w++) flat[w] = 1'($urandom);
      ids = {$urandom, $urandom}; idx = 3'($urandom); a = 8'(n); wk = 8'($urandom);
      #1;
      if (!(ok_whole && ok_arr && ok_dyn && ok_imp && ok_impb && ok_par && ok_ret && ok_ins && ok_cast && ok_bt)) begin
        bad++; if (bad < 5) $display("bad %0d: %b%b%b%b%b%b%b%b%b%b bits=%0d", n, ok_whole, ok_arr, ok_dyn, ok_imp, ok_impb, ok_par, ok_ret, ok_ins, ok_cast, ok_bt, bits);
      end
    end
    $display("verilator sim: %0d vectors, %0d failing, bits=%0d set=%h", 2000, bad, bits, so);
    $finish;
  end
endmodule
