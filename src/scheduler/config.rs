//! The scheduler's settings ([`SchedulerConfig`]): each is taken from code if code
//! set it, else from its environment variable, else from its default.

use super::devices::DEVICES_GRAMMAR;
use super::{Devices, GpuIndex};
use crate::error::{Error, Result};
use std::ffi::OsString;

/// Which GPUs to use, in the grammar of [`Devices`] (PyTorch Lightning's).
pub const ENV_DEVICES: &str = "GPUFHE_DEVICES";
/// CUDA streams per GPU.
pub const ENV_STREAMS_PER_GPU: &str = "GPUFHE_STREAMS_PER_GPU";
/// Logical workers per physical GPU (Curio's over-provisioning factor).
pub const ENV_GPU_OVERPROVISION: &str = "GPUFHE_GPU_OVERPROVISION";
/// The most ciphertexts bootstrapped in one launch (Concrete's `SDFG_MAX_BATCH_SIZE`).
pub const ENV_MAX_BATCH_SIZE: &str = "GPUFHE_MAX_BATCH_SIZE";
/// CPU worker threads beside the GPUs (Concrete's `SDFG_NUM_THREADS`).
pub const ENV_CPU_THREADS: &str = "GPUFHE_CPU_THREADS";
/// How much work a GPU gets relative to one CPU core (Concrete's
/// `SDFG_DEVICE_TO_CORE_RATIO`).
pub const ENV_DEVICE_TO_CORE_RATIO: &str = "GPUFHE_DEVICE_TO_CORE_RATIO";

/// Streams per GPU when nothing says otherwise.
pub const DEFAULT_STREAMS_PER_GPU: usize = 4;
/// Logical workers per physical GPU when nothing says otherwise.
pub const DEFAULT_GPU_OVERPROVISION: usize = 1;

/// The accepted values of an integer setting, and how to say so.
struct Range {
    min: usize,
    max: usize,
    expected: &'static str,
}

const STREAMS: Range = Range {
    min: 1,
    max: 1024,
    expected: "an integer from 1 to 1024 (default 4; more than about 10 streams per GPU \
               hurts)",
};
const OVERPROVISION: Range = Range {
    min: 1,
    max: 1024,
    expected: "an integer from 1 to 1024 (default 1)",
};
const MAX_BATCH: Range = Range {
    min: 1,
    max: usize::MAX,
    expected: "an integer >= 1 (default: sized from free GPU memory)",
};
// Bounded so that a mistyped value cannot make every operation try to start tens
// of thousands of threads (1024 is above any machine's hardware threads today).
const CPU_THREADS: Range = Range {
    min: 0,
    max: 1024,
    expected: "an integer from 0 to 1024, 0 for no CPU worker beside the GPUs (default: \
               hardware threads - GPUs in use, at least 1)",
};
const RATIO_EXPECTED: &str = "a finite number > 0, e.g. 8 or 2.5 (default: measured)";

impl Range {
    fn parse(&self, text: &str) -> std::result::Result<usize, String> {
        text.parse()
            .ok()
            .filter(|n| (self.min..=self.max).contains(n))
            .ok_or_else(|| self.expected.to_owned())
    }

    /// `Err` naming the builder method unless `n` is in range.
    fn check(&self, method: &str, n: usize) -> Result<()> {
        if (self.min..=self.max).contains(&n) {
            Ok(())
        } else {
            Err(code_error(method, n, self.expected))
        }
    }
}

fn ratio_is_valid(ratio: f64) -> bool {
    ratio.is_finite() && ratio > 0.0
}

fn parse_ratio(text: &str) -> std::result::Result<f64, String> {
    text.parse()
        .ok()
        .filter(|&r| ratio_is_valid(r))
        .ok_or_else(|| RATIO_EXPECTED.to_owned())
}

fn parse_devices(text: &str) -> std::result::Result<Devices, String> {
    let devices: Devices = text.parse().map_err(|_| DEVICES_GRAMMAR.to_owned())?;
    devices
        .check_form()
        .map_err(|e| format!("{DEVICES_GRAMMAR} ({e})"))?;
    Ok(devices)
}

fn code_error(method: &str, value: impl std::fmt::Debug, expected: &str) -> Error {
    Error::InvalidParameter(format!(
        "SchedulerConfigBuilder::{method}({value:?}) is invalid: expected {expected}"
    ))
}

/// One setting of [`SchedulerConfig`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Knob {
    /// [`ENV_DEVICES`].
    Devices,
    /// [`ENV_STREAMS_PER_GPU`].
    StreamsPerGpu,
    /// [`ENV_GPU_OVERPROVISION`].
    GpuOverprovision,
    /// [`ENV_MAX_BATCH_SIZE`].
    MaxBatchSize,
    /// [`ENV_CPU_THREADS`].
    CpuThreads,
    /// [`ENV_DEVICE_TO_CORE_RATIO`].
    DeviceToCoreRatio,
}

impl Knob {
    /// Every setting, in the order [`SchedulerConfig`] prints them.
    pub const ALL: [Knob; 6] = [
        Knob::Devices,
        Knob::StreamsPerGpu,
        Knob::GpuOverprovision,
        Knob::MaxBatchSize,
        Knob::CpuThreads,
        Knob::DeviceToCoreRatio,
    ];

    /// The environment variable of this setting.
    ///
    /// ```
    /// use gpufhe::scheduler::Knob;
    /// assert_eq!(Knob::StreamsPerGpu.variable(), "GPUFHE_STREAMS_PER_GPU");
    /// ```
    pub const fn variable(self) -> &'static str {
        match self {
            Knob::Devices => ENV_DEVICES,
            Knob::StreamsPerGpu => ENV_STREAMS_PER_GPU,
            Knob::GpuOverprovision => ENV_GPU_OVERPROVISION,
            Knob::MaxBatchSize => ENV_MAX_BATCH_SIZE,
            Knob::CpuThreads => ENV_CPU_THREADS,
            Knob::DeviceToCoreRatio => ENV_DEVICE_TO_CORE_RATIO,
        }
    }

    /// What the variable accepts.
    fn expected(self) -> &'static str {
        match self {
            Knob::Devices => DEVICES_GRAMMAR,
            Knob::StreamsPerGpu => STREAMS.expected,
            Knob::GpuOverprovision => OVERPROVISION.expected,
            Knob::MaxBatchSize => MAX_BATCH.expected,
            Knob::CpuThreads => CPU_THREADS.expected,
            Knob::DeviceToCoreRatio => RATIO_EXPECTED,
        }
    }
}

/// Where the value of a setting came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Source {
    /// Set with [`SchedulerConfigBuilder`].
    Code,
    /// Read from the setting's environment variable.
    Environment,
    /// Neither: the default.
    Default,
}

impl std::fmt::Display for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Source::Code => "code",
            Source::Environment => "environment",
            Source::Default => "default",
        })
    }
}

/// How the scheduler uses the machine. Each setting comes from code
/// ([`SchedulerConfig::builder`]) if code set it, else from its environment
/// variable, else from its default:
///
/// | variable | accepts | default |
/// |---|---|---|
/// | [`GPUFHE_DEVICES`](ENV_DEVICES) | the [`Devices`] grammar: `3`, `-1`, `auto`, `"1, 3"`, `"[1, 3]"`, `"3,"`, `0`, `cpu` | every visible GPU (`-1`) |
/// | [`GPUFHE_STREAMS_PER_GPU`](ENV_STREAMS_PER_GPU) | 1 to 1024; more than about 10 hurts | 4 |
/// | [`GPUFHE_GPU_OVERPROVISION`](ENV_GPU_OVERPROVISION) | 1 to 1024 logical workers per physical GPU | 1 |
/// | [`GPUFHE_MAX_BATCH_SIZE`](ENV_MAX_BATCH_SIZE) | an integer >= 1: the most ciphertexts bootstrapped in one launch | sized from free GPU memory |
/// | [`GPUFHE_CPU_THREADS`](ENV_CPU_THREADS) | 0 to 1024 CPU worker threads beside the GPUs; 0: none | hardware threads - GPUs in use, at least 1 |
/// | [`GPUFHE_DEVICE_TO_CORE_RATIO`](ENV_DEVICE_TO_CORE_RATIO) | a finite number > 0: the work one GPU gets per CPU core's | measured |
///
/// The memory budget of expansions, [`GPUFHE_MEMORY_LIMIT`](crate::memory::ENV_MEMORY_LIMIT),
/// is the process's, not a scheduler's: see [`crate::memory`].
///
/// A variable set to the empty string (or only whitespace) counts as unset;
/// surrounding whitespace is ignored. A value that is not valid, or not UTF-8, is
/// an [`Error::InvalidConfiguration`] naming the variable, the value and what is
/// accepted; only the variables of settings that code left unset are read. Values
/// set in code are checked too ([`Error::InvalidParameter`]).
///
/// Which GPUs the devices mean depends on the machine: see
/// [`SchedulerConfig::resolve_devices`]. [`Default`] is every default, without
/// reading the environment; [`Display`](std::fmt::Display) prints one line per
/// setting with where its value came from.
///
/// ```
/// use gpufhe::scheduler::{Knob, SchedulerConfig, Source};
/// use std::collections::HashMap;
/// let env = HashMap::from([
///     ("GPUFHE_STREAMS_PER_GPU".to_string(), "8".to_string()),
///     ("GPUFHE_DEVICES".to_string(), "0, 1".to_string()),
/// ]);
/// let config = SchedulerConfig::builder()
///     .streams_per_gpu(2)
///     .build_with(|name| env.get(name).cloned())?;
/// assert_eq!(config.streams_per_gpu(), 2); // code wins over the environment
/// assert_eq!(config.devices().to_string(), "0,1");
/// assert_eq!(config.source(Knob::Devices), Source::Environment);
/// assert_eq!(config.gpu_overprovision(), 1);
/// assert!(config.to_string().contains("GPUFHE_STREAMS_PER_GPU = 2 (code)"));
///
/// let bad = HashMap::from([("GPUFHE_STREAMS_PER_GPU".to_string(), "zero".to_string())]);
/// let err = SchedulerConfig::builder().build_with(|name| bad.get(name).cloned()).unwrap_err();
/// assert!(err.to_string().starts_with(r#"GPUFHE_STREAMS_PER_GPU="zero" is invalid: expected an integer"#));
/// # Ok::<(), gpufhe::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct SchedulerConfig {
    devices: Devices,
    streams_per_gpu: usize,
    gpu_overprovision: usize,
    max_batch_size: Option<usize>,
    cpu_threads: Option<usize>,
    device_to_core_ratio: Option<f64>,
    sources: [Source; 6],
}

impl Default for SchedulerConfig {
    /// Every default; the environment is not read.
    fn default() -> Self {
        Self {
            devices: Devices::all(),
            streams_per_gpu: DEFAULT_STREAMS_PER_GPU,
            gpu_overprovision: DEFAULT_GPU_OVERPROVISION,
            max_batch_size: None,
            cpu_threads: None,
            device_to_core_ratio: None,
            sources: [Source::Default; 6],
        }
    }
}

impl SchedulerConfig {
    /// A builder: settings set on it win over the environment.
    ///
    /// ```
    /// use gpufhe::scheduler::SchedulerConfig;
    /// let config = SchedulerConfig::builder().devices("cpu").build()?;
    /// assert!(config.resolve_devices(gpufhe::get_number_of_gpus())?.is_empty());
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn builder() -> SchedulerConfigBuilder {
        SchedulerConfigBuilder::default()
    }

    /// The environment's settings over the defaults: `builder().build()`.
    ///
    /// ```
    /// use gpufhe::scheduler::SchedulerConfig;
    /// if std::env::var_os("GPUFHE_STREAMS_PER_GPU").is_none() {
    ///     assert_eq!(SchedulerConfig::from_env()?.streams_per_gpu(), 4);
    /// }
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn from_env() -> Result<Self> {
        Self::builder().build()
    }

    /// Which GPUs to use ([`ENV_DEVICES`]); [`SchedulerConfig::resolve_devices`]
    /// says which they are on this machine.
    ///
    /// ```
    /// use gpufhe::scheduler::{Devices, SchedulerConfig};
    /// assert_eq!(SchedulerConfig::default().devices(), &Devices::all());
    /// ```
    pub fn devices(&self) -> &Devices {
        &self.devices
    }

    /// The GPUs the devices mean with `visible` GPUs ([`Devices::resolve`]); empty
    /// for the CPU only. When the devices came from the environment, a refusal is
    /// an [`Error::InvalidConfiguration`] naming [`ENV_DEVICES`].
    ///
    /// ```
    /// use gpufhe::scheduler::SchedulerConfig;
    /// let config = SchedulerConfig::builder()
    ///     .build_with(|name| (name == "GPUFHE_DEVICES").then(|| "3".to_string()))?;
    /// assert_eq!(config.resolve_devices(4)?.len(), 3);
    /// let err = config.resolve_devices(2).unwrap_err();
    /// assert!(err.to_string().starts_with(r#"GPUFHE_DEVICES="3" is invalid"#), "{err}");
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn resolve_devices(&self, visible: u32) -> Result<Vec<GpuIndex>> {
        self.devices
            .resolve(visible)
            .map_err(|e| match self.source(Knob::Devices) {
                Source::Environment => Error::InvalidConfiguration {
                    variable: ENV_DEVICES.into(),
                    value: self.devices.to_string(),
                    expected: format!("GPUs this machine has ({e})"),
                },
                Source::Code | Source::Default => e,
            })
    }

    /// CUDA streams per GPU ([`ENV_STREAMS_PER_GPU`], default 4).
    ///
    /// ```
    /// use gpufhe::scheduler::SchedulerConfig;
    /// assert_eq!(SchedulerConfig::default().streams_per_gpu(), 4);
    /// ```
    pub fn streams_per_gpu(&self) -> usize {
        self.streams_per_gpu
    }

    /// Logical workers per physical GPU ([`ENV_GPU_OVERPROVISION`], default 1).
    ///
    /// ```
    /// use gpufhe::scheduler::SchedulerConfig;
    /// assert_eq!(SchedulerConfig::default().gpu_overprovision(), 1);
    /// ```
    pub fn gpu_overprovision(&self) -> usize {
        self.gpu_overprovision
    }

    /// Workers per physical GPU: streams per GPU × over-provisioning.
    ///
    /// ```
    /// use gpufhe::scheduler::SchedulerConfig;
    /// let config = SchedulerConfig::builder().streams_per_gpu(3).gpu_overprovision(2).build()?;
    /// assert_eq!(config.workers_per_gpu(), 6);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn workers_per_gpu(&self) -> usize {
        self.streams_per_gpu.saturating_mul(self.gpu_overprovision)
    }

    /// The most ciphertexts bootstrapped in one launch ([`ENV_MAX_BATCH_SIZE`]);
    /// `None` (the default): as many as free GPU memory allows.
    ///
    /// ```
    /// use gpufhe::scheduler::SchedulerConfig;
    /// assert_eq!(SchedulerConfig::default().max_batch_size(), None);
    /// let config = SchedulerConfig::builder().max_batch_size(256).build()?;
    /// assert_eq!(config.max_batch_size(), Some(256));
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn max_batch_size(&self) -> Option<usize> {
        self.max_batch_size
    }

    /// CPU worker threads beside the GPUs as configured ([`ENV_CPU_THREADS`]);
    /// `None` (the default): [`SchedulerConfig::cpu_threads_for`]'s rule.
    ///
    /// ```
    /// use gpufhe::scheduler::SchedulerConfig;
    /// assert_eq!(SchedulerConfig::default().cpu_threads(), None);
    /// ```
    pub fn cpu_threads(&self) -> Option<usize> {
        self.cpu_threads
    }

    /// CPU worker threads beside `gpus_in_use` GPUs on a machine with
    /// `hardware_threads`: the configured number, else (the default, as Concrete's
    /// `SDFG_NUM_THREADS`) the hardware threads minus one per GPU in use, which
    /// keeps a thread free to feed each GPU, and at least 1. A configured 0 means no
    /// CPU worker beside the GPUs; with no GPU in use the CPU is the only device,
    /// so it then gets the default. A pure function.
    ///
    /// ```
    /// use gpufhe::scheduler::SchedulerConfig;
    /// let default = SchedulerConfig::default();
    /// assert_eq!(default.cpu_threads_for(2, 16), 14);
    /// assert_eq!(default.cpu_threads_for(4, 2), 1);
    /// let none = SchedulerConfig::builder().cpu_threads(0).build()?;
    /// assert_eq!(none.cpu_threads_for(2, 16), 0);
    /// assert_eq!(none.cpu_threads_for(0, 16), 16);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn cpu_threads_for(&self, gpus_in_use: usize, hardware_threads: usize) -> usize {
        match self.cpu_threads {
            Some(0) if gpus_in_use == 0 => hardware_threads.max(1),
            Some(n) => n,
            None => hardware_threads.saturating_sub(gpus_in_use).max(1),
        }
    }

    /// How much work a GPU gets relative to one CPU core
    /// ([`ENV_DEVICE_TO_CORE_RATIO`]); `None` (the default): measured or modelled.
    ///
    /// ```
    /// use gpufhe::scheduler::SchedulerConfig;
    /// let config = SchedulerConfig::builder().device_to_core_ratio(12.5).build()?;
    /// assert_eq!(config.device_to_core_ratio(), Some(12.5));
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn device_to_core_ratio(&self) -> Option<f64> {
        self.device_to_core_ratio
    }

    /// Where the value of `knob` came from.
    ///
    /// ```
    /// use gpufhe::scheduler::{Knob, SchedulerConfig, Source};
    /// let config = SchedulerConfig::builder().cpu_threads(3).build()?;
    /// assert_eq!(config.source(Knob::CpuThreads), Source::Code);
    /// assert_eq!(SchedulerConfig::default().source(Knob::Devices), Source::Default);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn source(&self, knob: Knob) -> Source {
        self.sources[knob as usize]
    }

    /// The value of `knob` as [`Display`](std::fmt::Display) prints it.
    fn value_text(&self, knob: Knob) -> String {
        let or = |value: Option<String>, default: &str| value.unwrap_or_else(|| default.into());
        match knob {
            Knob::Devices => self.devices.to_string(),
            Knob::StreamsPerGpu => self.streams_per_gpu.to_string(),
            Knob::GpuOverprovision => self.gpu_overprovision.to_string(),
            Knob::MaxBatchSize => or(
                self.max_batch_size.map(|n| n.to_string()),
                "sized from free GPU memory",
            ),
            Knob::CpuThreads => or(
                self.cpu_threads.map(|n| n.to_string()),
                "hardware threads - GPUs in use",
            ),
            Knob::DeviceToCoreRatio => {
                or(self.device_to_core_ratio.map(|r| r.to_string()), "measured")
            }
        }
    }
}

impl std::fmt::Display for SchedulerConfig {
    /// One line per setting: `GPUFHE_STREAMS_PER_GPU = 4 (default)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, knob) in Knob::ALL.into_iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            let (variable, value) = (knob.variable(), self.value_text(knob));
            write!(f, "{variable} = {value} ({})", self.source(knob))?;
        }
        Ok(())
    }
}

/// Sets some settings of a [`SchedulerConfig`] in code; the others come from the
/// environment or their defaults when it is built.
///
/// ```
/// use gpufhe::scheduler::SchedulerConfig;
/// let config = SchedulerConfig::builder()
///     .devices([0u32, 2])
///     .streams_per_gpu(2)
///     .gpu_overprovision(2)
///     .max_batch_size(512)
///     .cpu_threads(6)
///     .device_to_core_ratio(20.0)
///     .build()?;
/// assert_eq!(config.devices().to_string(), "0,2");
/// assert_eq!(config.workers_per_gpu(), 4);
/// assert!(SchedulerConfig::builder().streams_per_gpu(0).build().is_err());
/// # Ok::<(), gpufhe::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SchedulerConfigBuilder {
    devices: Option<Devices>,
    streams_per_gpu: Option<usize>,
    gpu_overprovision: Option<usize>,
    max_batch_size: Option<Option<usize>>,
    cpu_threads: Option<Option<usize>>,
    device_to_core_ratio: Option<Option<f64>>,
}

impl SchedulerConfigBuilder {
    /// The GPUs to use, in the [`Devices`] grammar: `3`, `-1`, `"auto"`, `"1, 3"`,
    /// `[1u32, 3]`, `"3,"`, `0`, `"cpu"`, a [`GpuIndex`] or a list of them. Checked
    /// at [`build`](Self::build) (text outside the grammar, a negative count other
    /// than -1, an empty list, a GPU listed twice).
    pub fn devices(mut self, devices: impl Into<Devices>) -> Self {
        self.devices = Some(devices.into());
        self
    }

    /// CUDA streams per GPU, 1 to 1024; more than about 10 hurts.
    pub fn streams_per_gpu(mut self, streams: usize) -> Self {
        self.streams_per_gpu = Some(streams);
        self
    }

    /// Logical workers per physical GPU, 1 to 1024 (Curio's over-provisioning
    /// factor: 2 lets each GPU run two independent jobs at once).
    pub fn gpu_overprovision(mut self, factor: usize) -> Self {
        self.gpu_overprovision = Some(factor);
        self
    }

    /// The most ciphertexts bootstrapped in one launch (>= 1), or `None` for as many
    /// as free GPU memory allows (which also overrides the environment).
    pub fn max_batch_size(mut self, max: impl Into<Option<usize>>) -> Self {
        self.max_batch_size = Some(max.into());
        self
    }

    /// CPU worker threads beside the GPUs (0 to 1024; 0 for none), or `None` for
    /// the default rule of [`SchedulerConfig::cpu_threads_for`].
    pub fn cpu_threads(mut self, threads: impl Into<Option<usize>>) -> Self {
        self.cpu_threads = Some(threads.into());
        self
    }

    /// How much work a GPU gets relative to one CPU core (finite, > 0), or `None`
    /// for measured.
    pub fn device_to_core_ratio(mut self, ratio: impl Into<Option<f64>>) -> Self {
        self.device_to_core_ratio = Some(ratio.into());
        self
    }

    /// The configuration, with the settings not set here read from the process
    /// environment ([`std::env::var_os`]).
    ///
    /// ```
    /// use gpufhe::scheduler::{Knob, SchedulerConfig, Source};
    /// let config = SchedulerConfig::builder().streams_per_gpu(6).build()?;
    /// assert_eq!(config.source(Knob::StreamsPerGpu), Source::Code);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn build(self) -> Result<SchedulerConfig> {
        self.build_with(|name| std::env::var_os(name))
    }

    /// The configuration, with the settings not set here read through `lookup`
    /// (variable name to value, `None` when unset) instead of the process
    /// environment: a pure function, for tests and for settings kept elsewhere.
    ///
    /// ```
    /// use gpufhe::scheduler::SchedulerConfig;
    /// let config = SchedulerConfig::builder()
    ///     .build_with(|name| (name == "GPUFHE_MAX_BATCH_SIZE").then(|| "64".to_string()))?;
    /// assert_eq!(config.max_batch_size(), Some(64));
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn build_with<V: Into<OsString>>(
        self,
        lookup: impl FnMut(&str) -> Option<V>,
    ) -> Result<SchedulerConfig> {
        let mut env = Environment {
            lookup,
            sources: [Source::Default; 6],
        };
        let devices = env.value(
            Knob::Devices,
            self.devices,
            Devices::check_form,
            parse_devices,
        )?;
        let streams_per_gpu = env.value(
            Knob::StreamsPerGpu,
            self.streams_per_gpu,
            |&n| STREAMS.check("streams_per_gpu", n),
            |text| STREAMS.parse(text),
        )?;
        let gpu_overprovision = env.value(
            Knob::GpuOverprovision,
            self.gpu_overprovision,
            |&n| OVERPROVISION.check("gpu_overprovision", n),
            |text| OVERPROVISION.parse(text),
        )?;
        let max_batch_size = env.value(
            Knob::MaxBatchSize,
            self.max_batch_size,
            |n| n.map_or(Ok(()), |n| MAX_BATCH.check("max_batch_size", n)),
            |text| MAX_BATCH.parse(text).map(Some),
        )?;
        let cpu_threads = env.value(
            Knob::CpuThreads,
            self.cpu_threads,
            |n| n.map_or(Ok(()), |n| CPU_THREADS.check("cpu_threads", n)),
            |text| CPU_THREADS.parse(text).map(Some),
        )?;
        let device_to_core_ratio = env.value(
            Knob::DeviceToCoreRatio,
            self.device_to_core_ratio,
            |r| match *r {
                Some(r) if !ratio_is_valid(r) => {
                    Err(code_error("device_to_core_ratio", r, RATIO_EXPECTED))
                }
                _ => Ok(()),
            },
            |text| parse_ratio(text).map(Some),
        )?;
        let default = SchedulerConfig::default();
        Ok(SchedulerConfig {
            devices: devices.unwrap_or(default.devices),
            streams_per_gpu: streams_per_gpu.unwrap_or(default.streams_per_gpu),
            gpu_overprovision: gpu_overprovision.unwrap_or(default.gpu_overprovision),
            max_batch_size: max_batch_size.flatten(),
            cpu_threads: cpu_threads.flatten(),
            device_to_core_ratio: device_to_core_ratio.flatten(),
            sources: env.sources,
        })
    }
}

/// Reads settings through a lookup, recording where each came from.
struct Environment<F> {
    lookup: F,
    sources: [Source; 6],
}

impl<F, V> Environment<F>
where
    F: FnMut(&str) -> Option<V>,
    V: Into<OsString>,
{
    /// `code` if set (after `check`), else the variable's value (through `parse`,
    /// whose `Err` says what is expected), else `None`: the default.
    fn value<T>(
        &mut self,
        knob: Knob,
        code: Option<T>,
        check: impl FnOnce(&T) -> Result<()>,
        parse: impl FnOnce(&str) -> std::result::Result<T, String>,
    ) -> Result<Option<T>> {
        if let Some(value) = code {
            check(&value)?;
            self.sources[knob as usize] = Source::Code;
            return Ok(Some(value));
        }
        let Some(raw) = (self.lookup)(knob.variable()) else {
            return Ok(None);
        };
        let invalid = |value: String, expected: String| Error::InvalidConfiguration {
            variable: knob.variable().into(),
            value,
            expected,
        };
        let text = raw.into().into_string().map_err(|raw| {
            let expected = format!("UTF-8 text: {}", knob.expected());
            invalid(raw.to_string_lossy().into_owned(), expected)
        })?;
        if text.trim().is_empty() {
            return Ok(None);
        }
        let value = parse(text.trim()).map_err(|expected| invalid(text.clone(), expected))?;
        self.sources[knob as usize] = Source::Environment;
        Ok(Some(value))
    }
}
