//! The driver layer: what every GPU object stands on. Written down as cudarc
//! layers its crate (sys -> result -> safe):
//!
//! | file | what | built on |
//! |---|---|---|
//! | `kernel_image.rs`, `kernels` | the kernel images `build.rs` embeds (a fatbin, or cubins and PTX) | the build |
//! | `memory_pool.rs` | the device's stream-ordered memory pool, kept mapped between steps; its unused bytes counted as free | cudarc's result layer |
//! | `device.rs` | a GPU: its context, streams, attributes, memory, loaded kernel modules (which functions they hold is `super::kernels`'s business); the device probes | cudarc's safe layer, the images |
//! | `health.rs` | objects of a device that become [`Error::DeviceLost`] after a sticky fault | device |
//! | `read_tracking.rs` | buffers read on several streams, freed after every reader | device |
//! | `kernel.rs` | one loaded kernel and its limits (shared memory, clusters) | the device through [`kernel::KernelDevice`] |
//! | `launch.rs` | launches of one parameter struct, plain or as clusters | device, kernel |
//!
//! Entities (`super::entities`) and algorithms (`super::algorithms`) use only this
//! layer's handles; `unsafe` blocks live here and in the algorithms' launch sites,
//! each with its `// SAFETY:` comment.

pub(crate) mod device;
pub(crate) mod health;
pub(crate) mod kernel;
pub(crate) mod kernel_image;
pub(crate) mod launch;
pub(crate) mod memory_pool;
pub(crate) mod read_tracking;
