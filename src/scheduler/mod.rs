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

mod config;
mod devices;

pub use config::{
    Knob, SchedulerConfig, SchedulerConfigBuilder, Source, DEFAULT_GPU_OVERPROVISION,
    DEFAULT_STREAMS_PER_GPU, ENV_CPU_THREADS, ENV_DEVICES, ENV_DEVICE_TO_CORE_RATIO,
    ENV_GPU_OVERPROVISION, ENV_MAX_BATCH_SIZE, ENV_STREAMS_PER_GPU,
};
pub(crate) use devices::no_gpu_error;
pub use devices::{
    get_number_of_gpus, probe_gpus, select_usable, Device, Devices, GpuIndex, GpuProbe,
    GpuSelection,
};
