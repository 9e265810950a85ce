//! The scheduler: configuration, devices, the cost model, CPU workers, GPU
//! selection on any machine, and the load test.

#[path = "../support/child.rs"]
mod child;
#[path = "../support/common.rs"]
mod common;
#[path = "../support/params.rs"]
mod params;
#[path = "../support/skip.rs"]
mod skip;

mod gpu_selection;
mod scheduler_config;
mod scheduler_cost;
mod scheduler_cpu;
mod scheduler_devices;
mod stress;
