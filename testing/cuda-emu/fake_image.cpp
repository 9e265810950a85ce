// Whether a real driver of a given version could load a module image on a device of a
// given compute capability (see fake_image.h): the fake driver refuses what a real one
// would, so that a toolchain whose kernels need a newer driver fails the tests.
#include "fake_image.h"

#include <cstdint>
#include <cstring>
#include <string>

namespace fake {
namespace {

template <class T>
T read(const unsigned char *p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// The oldest driver (CUDA version x 1000 + minor x 10) that JIT-compiles PTX of ISA
// version major.minor (the PTX ISA's release notes: 8.0 came with CUDA 12.0, 8.6
// with 12.7, 9.0 with 13.0).
int ptx_driver(int major, int minor) {
  if (major >= 9) return 13000 + 10 * minor + 1000 * (major - 9);
  if (major == 8) return minor <= 5 ? 12000 + 10 * minor : 12070 + 10 * (minor - 6);
  if (major == 7) return 11000 + 10 * minor;
  return 10000;
}

// The oldest driver that loads a cubin of this ELF ABI version: CUDA 13 writes ABI 8
// (with the architecture moved in e_flags), CUDA 12 ABI 7; within a major version a
// driver loads the cubins of any later minor release.
int cubin_driver(int abi) { return abi >= 8 ? 13000 : abi == 7 ? 12000 : 11000; }

bool sass_runs_on(int arch, int cc) { return arch / 10 == cc / 10 && arch % 10 <= cc % 10; }

struct Verdict {
  bool loadable = false;
  bool ptx_too_new = false;
  void cubin(int arch, int abi, int cc, int driver) {
    if (sass_runs_on(arch, cc) && cubin_driver(abi) <= driver) loadable = true;
  }
  void ptx(int major, int minor, int arch, int cc, int driver) {
    if (arch > cc) return;
    if (ptx_driver(major, minor) <= driver) loadable = true;
    else ptx_too_new = true;
  }
};

void elf(const unsigned char *p, int cc, int driver, Verdict &v) {
  const int abi = p[8];
  const uint32_t flags = read<uint32_t>(p + 0x30);
  const int arch = abi >= 8 ? (int)((flags >> 8) & 0xff) : (int)(flags & 0xff);
  v.cubin(arch, abi, cc, driver);
}

void ptx_text(const char *text, int cc, int driver, Verdict &v) {
  int major = 0, minor = 0, arch = 0;
  if (const char *s = std::strstr(text, ".version ")) std::sscanf(s, ".version %d.%d", &major, &minor);
  if (const char *s = std::strstr(text, ".target sm_")) std::sscanf(s, ".target sm_%d", &arch);
  if (major > 0 && arch > 0) v.ptx(major, minor, arch, cc, driver);
}

// A fatbin: a 16-byte header (magic, version, header size, payload size), then
// entries of a header (kind 1 PTX / 2 ELF, header size, payload size, the payload's
// version at byte 24 (PTX: major << 16 | minor; ELF: 1 << 16 | ABI), architecture at
// byte 28) and a payload, possibly compressed (the version words suffice).
void fatbin(const unsigned char *p, int cc, int driver, Verdict &v) {
  const uint16_t header = read<uint16_t>(p + 6);
  const uint64_t size = read<uint64_t>(p + 8);
  for (uint64_t off = header; off + 32 <= header + size;) {
    const unsigned char *e = p + off;
    const uint16_t kind = read<uint16_t>(e);
    const uint32_t entry_header = read<uint32_t>(e + 4);
    const uint64_t payload = read<uint64_t>(e + 8);
    const uint32_t version = read<uint32_t>(e + 24);
    const int arch = (int)read<uint32_t>(e + 28);
    if (kind == 1) v.ptx((int)(version >> 16), (int)(version & 0xffff), arch, cc, driver);
    if (kind == 2) v.cubin(arch, (int)(version & 0xffff), cc, driver);
    if (entry_header == 0) break;
    off += entry_header + payload;
  }
}

}  // namespace

ImageCheck check_image(const void *image, int driver, int cc) {
  const auto *p = static_cast<const unsigned char *>(image);
  Verdict v;
  if (read<uint32_t>(p) == 0xBA55ED50u) {
    fatbin(p, cc, driver, v);
  } else if (std::memcmp(p, "\x7f" "ELF", 4) == 0) {
    elf(p, cc, driver, v);
  } else {
    ptx_text(static_cast<const char *>(image), cc, driver, v);
  }
  return ImageCheck{v.loadable, v.ptx_too_new};
}

}  // namespace fake
