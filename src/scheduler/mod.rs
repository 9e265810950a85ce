//! The scheduler: where encrypted work runs. It owns the device state of a server
//! key (which GPUs, how many streams on each, the CPU threads beside them), decides
//! where each circuit goes and splits batches of independent operations over the
//! workers.
//!
//! ```text
//! high_level  ->  scheduler  ->  integer  ->  backend  ->  shortint  ->  core_crypto
//! values, keys,   devices, workers,  circuits    steps on the
//! operators       streams, dispatch               CPU or a GPU
//! ```
//!
//! It sees blocks, circuits and backends, never the high-level values, their key
//! tags or the thread-local key.
//!
//! - A single operation is a batch of one on the calling thread's worker: the CPU
//!   worker, or on a key with GPUs a stream-bound worker of the GPU where the
//!   operands already are (else the least busy one), leased for the circuit.
//! - A batch of independent operations is split into shares, one per worker, each
//!   run as **one** circuit (one launch per bootstrap layer), capped by the largest
//!   batch per launch and the free memory; results come back in input order.
//! - The CPU worker has its own thread budget and never runs more compute threads;
//!   see [`worker`](self) for how it stays fast when many circuits run at once.

mod batch;
mod calibrate;
mod config;
mod cost;
mod devices;
mod dispatch;
mod engine;
mod memory;
mod record;
mod residency;
mod speed;
mod worker;

pub use batch::BatchProgress;
#[cfg(feature = "gpu")]
pub use calibrate::measure_gpu;
pub use calibrate::{measure_cpu, Calibration, CalibrationOptions};
pub use cost::{format_seconds, CostModel, Prediction, Worker};
pub use dispatch::{plan, split_even, Advice, Operation, RightOperand, Workload};
pub use memory::{circuit_gpu_memory_bytes, gpu_expression_bytes};
pub use speed::{CpuSpeed, GpuSpeed, Provenance};

pub(crate) use batch::{Chunk, Target};
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
pub(crate) use dispatch::share_seconds;
pub(crate) use record::Recording;
pub(crate) use residency::{Blocks, CircuitInput};

pub use engine::*;
