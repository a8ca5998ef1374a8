// gsched: gs_pkg -- parameters, enums and packed records shared by every scheduler block.
//
// This package is the ONE source of truth for the RTL build parameters: CMake parses the
// `localparam int Name = <integer>;` lines below into gs_rtl_params.hpp, so keep each on one
// line with a plain decimal value (derived widths are written out and checked by assertions
// in gs_top). The C++ side refuses a GpuConfig or mix beyond these limits (InputError).
// Records that cross the decision port mirror cmodel/sched/scheduler_port.hpp field by field.
// Yosys 0.23 notes: reference items qualified (gs_pkg::x), no `import`. Yosys 0.23 silently
// drops the dimension of a packed array of a typedef or struct (`entry_t [N-1:0] tbl` becomes
// one entry) and rejects `logic [N-1:0][W-1:0]`, so every table is a flat vector and entry i
// is `tbl[i*W +: W]`, read into a struct variable, modified, written back whole. The *W
// widths below equal $bits() of each record (asserted in gs_top).
package gs_pkg;

  // ---------------------------------------------------------------- sizing parameters
  localparam int MaxSms /*verilator public*/ = 32;          // SMST entries
  localparam int MaxKernels /*verilator public*/ = 8;       // KSRT entries (active kernels)
  localparam int MaxContexts /*verilator public*/ = 8;      // command buffers
  localparam int CmdBufDepth /*verilator public*/ = 4;      // launches held per command buffer
  localparam int MaxCtasPerSm /*verilator public*/ = 32;    // CTA slots of the largest SM
  localparam int PtbqDepth /*verilator public*/ = 128;      // preempted-CTA handles per KSRT slot
  localparam int KernelIdW /*verilator public*/ = 8;        // kernel id = index in the mix, 255 = none
  localparam int SmIdW /*verilator public*/ = 6;            // holds 0..MaxSms
  localparam int CtaIdW /*verilator public*/ = 20;          // CTA ids and grid sizes (grid < 2**20)
  localparam int ThreadW /*verilator public*/ = 12;         // threads per SM, up to 2048
  localparam int WarpW /*verilator public*/ = 7;            // warps per SM, up to 64
  localparam int RegW /*verilator public*/ = 17;            // registers per SM, up to 65536
  localparam int ShmemW /*verilator public*/ = 17;          // shared-memory bytes per SM, up to 96 KB
  localparam int CtaCntW /*verilator public*/ = 6;          // CTA counts per SM, 0..MaxCtasPerSm
  localparam int PrioW /*verilator public*/ = 4;            // priorities 0..15, higher = more important
  localparam int TokenW /*verilator public*/ = 16;          // DSS token count, two's complement (debt < 0)
  localparam int SlotW = 3;            // log2(MaxKernels)
  localparam int CtxW = 3;             // log2(MaxContexts)
  localparam int CmdPtrW = 2;          // log2(CmdBufDepth)
  localparam int OrderPtrW = 5;        // log2(MaxContexts * CmdBufDepth)
  localparam int PtbqPtrW = 7;         // log2(PtbqDepth)
  localparam int PtbqCntW = 8;         // 0..PtbqDepth
  localparam int SaveCreditW = 11;     // 0..MaxSms*MaxCtasPerSm
  localparam int NoKernel = 255;       // kernel id "none" (C++ kNoKernel 0xFFFF)
  localparam int LaunchW = 104;        // $bits(launch_t)
  localparam int KsrtW = 145;          // $bits(ksrt_entry_t)
  localparam int SmstW = 69;           // $bits(smst_entry_t)
  localparam int OrderKeyW = 7;        // PrioW + SlotW

  // ---------------------------------------------------------------- scalar field types
  typedef logic [KernelIdW-1:0] kernel_id_t;
  typedef logic [SmIdW-1:0] sm_id_t;
  typedef logic [CtaIdW-1:0] cta_id_t;
  typedef logic [ThreadW-1:0] threads_t;
  typedef logic [WarpW-1:0] warps_t;
  typedef logic [RegW-1:0] regs_t;
  typedef logic [ShmemW-1:0] shmem_t;
  typedef logic [CtaCntW-1:0] cta_cnt_t;
  typedef logic [PrioW-1:0] prio_t;
  typedef logic [TokenW-1:0] tokens_t;
  typedef logic [SlotW-1:0] slot_t;
  typedef logic [CtxW-1:0] ctx_t;
  typedef logic [PtbqCntW-1:0] ptbq_cnt_t;
  typedef logic [MaxKernels-1:0] slot_mask_t;
  typedef logic [MaxSms-1:0] sm_mask_t;
  // per-slot sort key of the SM driver: lower value = issued first
  typedef logic [OrderKeyW-1:0] order_key_t;

  // ---------------------------------------------------------------- enums
  typedef enum logic [2:0] {
    POL_LEFT_OVER  = 3'd0,   // FIFO, Hyper-Q left-over
    POL_EVEN       = 3'd1,   // intra-SM even split (Warped-Slicer Sec. III, Fig. 2c)
    POL_SPATIAL    = 3'd2,   // SMs split evenly between kernels (Adriaens)
    POL_NPQ        = 3'd3,   // non-preemptive priority queues (Tanasic Sec. 4.2)
    POL_PPQ_EXCL   = 3'd4,   // preemptive priority queues, exclusive
    POL_PPQ_SHARED = 3'd5,   // preemptive priority queues, shared
    POL_DSS        = 3'd6    // Dynamic Spatial Sharing (Tanasic Algorithm 1)
  } policy_e;

  typedef enum logic {
    PREEMPT_DRAIN  = 1'b0,
    PREEMPT_SWITCH = 1'b1
  } preempt_mode_e;

  typedef enum logic [1:0] {
    SM_IDLE     = 2'd0,
    SM_RUNNING  = 2'd1,
    SM_RESERVED = 2'd2
  } sm_state_e;

  typedef enum logic [1:0] {
    EV_NONE          = 2'd0,
    EV_CTA_FINISHED  = 2'd1,
    EV_CTA_SAVED     = 2'd2,
    EV_PREEMPT_DONE  = 2'd3
  } sm_event_e;

  typedef enum logic [1:0] {
    BYPASS_NONE = 2'd0,
    BYPASS_L1   = 2'd1,
    BYPASS_L1L2 = 2'd2
  } bypass_level_e;

  // ---------------------------------------------------------------- records
  // Kernel launch as written into a command buffer (Tanasic Sec. 3.3).
  typedef struct packed {
    kernel_id_t kernel;
    ctx_t       ctx;
    prio_t      prio;
    tokens_t    tokens;
    threads_t   threads;   // per CTA
    warps_t     warps;     // per CTA
    regs_t      regs;      // per CTA, allocation-rounded
    shmem_t     shmem;     // per CTA, allocation-rounded
    cta_id_t    grid;      // CTAs in the grid
  } launch_t;

  // Kernel Status Register: one KSRT entry.
  typedef struct packed {
    logic       valid;
    kernel_id_t kernel;
    ctx_t       ctx;
    prio_t      prio;
    tokens_t    tokens;    // DSS current token count (signed)
    threads_t   threads;
    warps_t     warps;
    regs_t      regs;
    shmem_t     shmem;
    cta_id_t    grid;
    cta_id_t    next_cta;  // next fresh CTA id to issue
    cta_id_t    done;      // CTAs finished
  } ksrt_entry_t;

  // SM Status Register: one SMST entry (resident CTAs per slot live beside it).
  typedef struct packed {
    sm_state_e  state;
    logic       owner_valid;  // SM assigned to one kernel (spatial, DSS)
    slot_t      owner;
    logic       next_valid;   // kernel the reserved SM goes to after preemption
    slot_t      next;
    threads_t   threads;      // used
    warps_t     warps;
    regs_t      regs;
    shmem_t     shmem;
    cta_cnt_t   ctas;
  } smst_entry_t;

  // Resources one CTA takes from an SM (CTA slot implied).
  typedef struct packed {
    threads_t threads;
    warps_t   warps;
    regs_t    regs;
    shmem_t   shmem;
  } cta_res_t;

  typedef struct packed {
    logic       valid;
    sm_id_t     sm;
    kernel_id_t kernel;
    cta_id_t    cta;
    logic       resume;
  } dispatch_t;

  typedef struct packed {
    logic          valid;
    sm_id_t        sm;
    preempt_mode_e mode;
    kernel_id_t    victim;
    kernel_id_t    next;
  } preempt_t;

  typedef struct packed {
    logic       valid;
    sm_id_t     sm;
    kernel_id_t kernel;
    cta_cnt_t   max_ctas;
  } quota_t;

  typedef struct packed {
    logic          valid;
    kernel_id_t    kernel;
    bypass_level_e level;
  } bypass_t;

  typedef struct packed {
    cta_id_t cta;
  } ptbq_entry_t;

  // Preemption request of a policy to gs_preempt_ctrl (slots, not kernel ids).
  typedef struct packed {
    logic   valid;
    sm_id_t sm;
    logic   victim_all;   // preempt every kernel on the SM
    slot_t  victim;
    logic   next_valid;
    slot_t  next;
    logic   assign_next;  // SM becomes owned by `next` when the preemption is done (DSS)
  } preempt_req_t;

  // Owner write of a policy into the SMST.
  typedef struct packed {
    logic   valid;
    sm_id_t sm;
    logic   owner_valid;
    slot_t  owner;
  } owner_wr_t;

  // DSS token update of the KSRT: one increment and one decrement per cycle.
  typedef struct packed {
    logic  inc_valid;
    slot_t inc;
    logic  dec_valid;
    slot_t dec;
  } token_upd_t;

endpackage
