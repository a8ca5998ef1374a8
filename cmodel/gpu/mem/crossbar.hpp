// gsched memory system: one direction of the SM <-> L2 crossbar.
//
// Contract (one tick() per core cycle):
//   * `sources` input ports and `dests` output ports, each moving xbar_bytes_per_cycle; a
//     packet of B bytes (Packet::wire_bytes) holds its source port and its destination port
//     for S = ceil(B / bytes_per_cycle) cycles, and arrives `latency` cycles after its last
//     byte left: injected at t, it is in the destination's inbox with ready = t + S + latency;
//   * each free destination port picks, round robin from the source after the last one it
//     served, one free source whose head packet is ready and addressed to it;
//   * a destination with a bounded inbox (dest_capacity > 0) accepts only while its inbox
//     (packets in flight to it plus packets waiting there) holds fewer than dest_capacity:
//     that is the credit-based backpressure of the slice input queues. SM-side inboxes are
//     unbounded (their traffic is bounded by the SM's MSHRs and context window).
//   * inbox(d) is FIFO in arrival order (a port serialises its packets, so arrivals at one
//     destination are monotone); the consumer pops packets whose ready <= now.
// Sources are callbacks: head(s) -> const Packet* (ready, or nullptr), pop(s), and
// dest(const Packet&) -> destination port, so the crossbar owns no producer queue.
#pragma once
#include <cstdint>
#include <vector>

#include "gpu/mem/packet.hpp"
#include "gpu/mem/ring_fifo.hpp"

namespace gs::mem {

struct XbarStats {
  uint64_t packets = 0, bytes = 0;
};

class Crossbar {
 public:
  Crossbar(uint32_t sources, uint32_t dests, uint32_t bytes_per_cycle, uint32_t latency, uint32_t line_bytes,
           uint32_t dest_capacity);

  template <class Head, class Pop, class Dest>
  void tick(uint64_t now, Head&& head, Pop&& pop, Dest&& dest);

  RingFifo<Packet>& inbox(uint32_t d) { return inbox_[d]; }
  const RingFifo<Packet>& inbox(uint32_t d) const { return inbox_[d]; }
  bool idle() const;
  const XbarStats& stats() const { return stats_; }
  /// Cycles a packet of `bytes` occupies a port.
  uint32_t port_cycles(uint32_t bytes) const { return (bytes + bpc_ - 1) / bpc_; }

 private:
  uint32_t n_src_, n_dst_, bpc_, latency_, line_bytes_, dest_cap_;
  std::vector<uint64_t> src_busy_, dst_busy_;
  std::vector<uint32_t> rr_;      // per destination: first source to consider
  std::vector<int32_t> want_;     // scratch: per source, destination of its ready head
  std::vector<uint32_t> wanted_;  // scratch: per destination, number of sources wanting it
  std::vector<RingFifo<Packet>> inbox_;
  XbarStats stats_;
};

template <class Head, class Pop, class Dest>
void Crossbar::tick(uint64_t now, Head&& head, Pop&& pop, Dest&& dest) {
  bool any = false;
  for (uint32_t s = 0; s < n_src_; ++s) {
    want_[s] = -1;
    if (src_busy_[s] > now) continue;
    const Packet* p = head(s);
    if (!p) continue;
    const uint32_t d = dest(*p);
    want_[s] = int32_t(d);
    ++wanted_[d];
    any = true;
  }
  if (!any) return;
  for (uint32_t d = 0; d < n_dst_; ++d) {
    if (wanted_[d] == 0) continue;
    wanted_[d] = 0;
    if (dst_busy_[d] > now) continue;
    if (dest_cap_ && inbox_[d].size() >= dest_cap_) continue;
    uint32_t s = rr_[d];
    for (uint32_t k = 0; k < n_src_; ++k, s = (s + 1 == n_src_ ? 0 : s + 1)) {
      if (want_[s] != int32_t(d)) continue;
      Packet p = *head(s);
      pop(s);
      const uint32_t bytes = p.wire_bytes(line_bytes_);
      const uint32_t occ = port_cycles(bytes);
      src_busy_[s] = dst_busy_[d] = now + occ;
      p.ready = now + occ + latency_;
      inbox_[d].push(p);
      ++stats_.packets;
      stats_.bytes += bytes;
      rr_[d] = (s + 1 == n_src_) ? 0 : s + 1;
      break;
    }
  }
}

}  // namespace gs::mem
