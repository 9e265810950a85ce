// Module images as a real driver sees them: which driver version and compute
// capability can load a fatbin, a cubin or PTX text (fake_image.cpp).
#pragma once

namespace fake {

struct ImageCheck {
  bool loadable = false;     // some cubin runs on the device, or some PTX can be JIT-compiled
  bool ptx_too_new = false;  // PTX for the device exists, but this driver cannot JIT it
};

// `driver` as cuDriverGetVersion reports it (12000 = CUDA 12.0), `cc` as 10 x major +
// minor.
ImageCheck check_image(const void *image, int driver, int cc);

}  // namespace fake
