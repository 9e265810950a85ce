// The cluster part of cooperative_groups for the CPU emulation (see cuda_emu.h).
#pragma once
#include "cuda_emu.h"

namespace cooperative_groups {
struct cluster_group {
  unsigned block_rank() const { return emu::state().current->block_in_unit; }
  void sync() const { emu::sync_cluster(); }
  template <class T>
  T *map_shared_rank(T *addr, unsigned rank) const {
    emu::Unit &u = *emu::state().unit;
    unsigned char *own = u.shared[emu::state().current->block_in_unit].data();
    const size_t offset = reinterpret_cast<unsigned char *>(addr) - own;
    if (rank >= u.blocks || offset >= u.shared[rank].size()) {
      std::fprintf(stderr, "map_shared_rank: rank %u or offset %zu out of range\n", rank, offset);
      std::abort();
    }
    return reinterpret_cast<T *>(u.shared[rank].data() + offset);
  }
};
inline cluster_group this_cluster() { return {}; }
}  // namespace cooperative_groups
