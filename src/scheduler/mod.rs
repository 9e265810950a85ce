//! The scheduler: where encrypted work runs. It owns the device state of a server
//! key (which GPUs, how many streams on each, the CPU threads beside them), decides
//! where each circuit goes and splits batches of independent operations over the
//! workers in proportion to their predicted speed.
//!
//! ```text
//! high_level  ->  scheduler  ->  integer  ->  backend  ->  shortint  ->  core_crypto
//! ```
//!
//! It sees blocks, circuits and backends, never the high-level values or the
//! thread-local key. Every decision is a pure function tested without a GPU.

mod calibrate;
mod cost;
mod devices;
mod dispatch;

#[cfg(feature = "gpu")]
pub use calibrate::measure_gpu;
pub use calibrate::{measure_cpu, Calibration, CalibrationOptions};
pub use cost::{format_seconds, CostModel, CpuSpeed, GpuSpeed, Prediction, Provenance, Worker};
pub(crate) use devices::no_gpu_error;
pub use devices::{get_number_of_gpus, Device, GpuIndex, GpuSelection};
pub use dispatch::{plan, split_even, Advice, Operation, RightOperand, Workload};
