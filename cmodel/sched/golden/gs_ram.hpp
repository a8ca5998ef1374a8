// gsched golden twin of rtl/mem/gs_ram_1r1w.sv and rtl/mem/gs_ram_1rw.sv: Depth words of Width
// bits (Width <= 64) and the read register, clocked as the RTL is (docs/rtl/gs_ram.md). The
// memory has no reset, so a word is unknown until its first write and the read register until
// its first read (rdata_known()); std::nullopt marks an unknown word, where a bench cannot compare.
// read_cycles 2 (gs_ram_1r1w's ReadCycles): the word read at an edge reaches rdata() at the next.
#pragma once
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <vector>

namespace gs::golden {

class Ram {
 public:
  using Word = std::optional<uint64_t>;

  Ram(uint32_t depth, uint32_t width, uint32_t read_cycles = 1) : width_(width), two_(read_cycles == 2), mem_(depth) {
    if (depth == 0 || width == 0 || width > 64)
      throw std::invalid_argument("Ram: need Depth >= 1 and 1 <= Width <= 64");
    if (read_cycles != 1 && read_cycles != 2) throw std::invalid_argument("Ram: ReadCycles is 1 or 2");
  }
  uint32_t depth() const { return static_cast<uint32_t>(mem_.size()); }
  uint32_t width() const { return width_; }
  /// rdata_o: the read register, defined once a read has read a written word (a plain word and
  /// a flag, not a Word: GCC 12 warns maybe-uninitialized on an inlined optional here).
  bool rdata_known() const { return rdata_known_; }
  uint64_t rdata() const { return rdata_; }
  /// The stored word at addr (unknown before its first write).
  const Word& word(uint32_t addr) const { return mem_.at(addr); }

  /// gs_ram_1r1w, one rising edge. The read takes the array as it was before the edge, so a read
  /// of the address written at the same edge returns the old word. An address >= Depth: the
  /// write is dropped, the read gives 0 (the RTL asserts).
  void clock_1r1w(bool we, uint32_t waddr, uint64_t wdata, bool re, uint32_t raddr) {
    if (two_) {  // the word read at the last edge moves to the port
      if (pend_) rdata_known_ = stage_known_, rdata_ = stage_;
      pend_ = re;
      if (re) {
        const Word w = read(raddr);
        stage_known_ = w.has_value();
        stage_ = w.value_or(0);
      }
    } else if (re) {
      load(read(raddr));
    }
    if (we) write(waddr, wdata);
  }
  /// gs_ram_1rw, one rising edge: en && we writes (rdata_o holds), en && !we reads.
  void clock_1rw(bool en, bool we, uint32_t addr, uint64_t wdata) {
    if (!en) return;
    if (we) write(addr, wdata);
    else load(read(addr));
  }

 private:
  uint64_t mask() const { return width_ == 64 ? ~uint64_t{0} : (uint64_t{1} << width_) - 1; }
  Word read(uint32_t addr) const { return addr < mem_.size() ? mem_[addr] : Word{0}; }
  void load(const Word& w) {
    rdata_known_ = w.has_value();
    rdata_ = w.value_or(0);
  }
  void write(uint32_t addr, uint64_t data) {
    if (addr < mem_.size()) mem_[addr] = data & mask();
  }

  uint32_t width_;
  bool two_;  // ReadCycles 2: the read register (stage_) and a second one, the port (rdata_)
  std::vector<Word> mem_;
  bool rdata_known_ = false;
  uint64_t rdata_ = 0;
  bool pend_ = false, stage_known_ = false;
  uint64_t stage_ = 0;
};

}  // namespace gs::golden
