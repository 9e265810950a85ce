//! Which GPUs exist and which are chosen: [`GpuIndex`], [`GpuSelection`],
//! [`get_number_of_gpus`], where a value lives ([`Device`]), requests in PyTorch
//! Lightning's grammar resolved against the visible GPUs ([`Devices`]), and the
//! choice of GPUs this process can use ([`probe_gpus`], [`select_usable`],
//! [`Devices::auto_select`]).
//!
//! Without the `gpu` feature everything here still exists: there are no GPUs
//! ([`get_number_of_gpus`] is 0) and asking for one is an error.

pub use crate::backend::gpu::{get_number_of_gpus, probe_gpus, GpuIndex, GpuProbe};
use crate::error::{Error, Result};

/// The GPUs a server key is decompressed to: one [`GpuIndex`], or several (a
/// `Vec`, slice or array of them), for
/// [`CompressedServerKey::decompress_to_specific_gpu`](crate::CompressedServerKey::decompress_to_specific_gpu).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GpuSelection(Vec<GpuIndex>);

impl GpuSelection {
    /// The chosen GPUs, in order.
    pub fn gpus(&self) -> &[GpuIndex] {
        &self.0
    }

    /// `Err` if the selection is empty, names a GPU twice, or a GPU that is not
    /// among the `count` visible ones.
    pub(crate) fn check(&self, count: u32) -> Result<()> {
        if self.0.is_empty() {
            return Err(Error::InvalidParameter("no GPU selected".into()));
        }
        for (i, gpu) in self.0.iter().enumerate() {
            if self.0[..i].contains(gpu) {
                return Err(Error::InvalidParameter(format!("{gpu} is selected twice")));
            }
        }
        self.0.iter().try_for_each(|gpu| gpu.check(count))
    }
}

impl From<GpuIndex> for GpuSelection {
    fn from(gpu: GpuIndex) -> Self {
        Self(vec![gpu])
    }
}

impl From<Vec<GpuIndex>> for GpuSelection {
    fn from(gpus: Vec<GpuIndex>) -> Self {
        Self(gpus)
    }
}

impl From<&[GpuIndex]> for GpuSelection {
    fn from(gpus: &[GpuIndex]) -> Self {
        Self(gpus.to_vec())
    }
}

impl<const N: usize> From<[GpuIndex; N]> for GpuSelection {
    fn from(gpus: [GpuIndex; N]) -> Self {
        Self(gpus.to_vec())
    }
}

/// Where the blocks of an encrypted value live.
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::{ClientKey, ConfigBuilder, Device, FheUint8};
/// let client_key = ClientKey::generate(ConfigBuilder::default());
/// let x = FheUint8::encrypt(7u8, &client_key);
/// assert_eq!(x.current_device(), Device::Cpu);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Device {
    /// Host memory.
    Cpu,
    /// The memory of one GPU.
    CudaGpu(GpuIndex),
}

impl std::fmt::Display for Device {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Cpu => write!(f, "CPU"),
            Self::CudaGpu(gpu) => write!(f, "{gpu}"),
        }
    }
}

/// The error for "no GPU" when a GPU key is requested.
pub(crate) fn no_gpu_error(what: &str) -> Error {
    let reason = if cfg!(feature = "gpu") {
        "no CUDA driver or device is visible"
    } else {
        "gpufhe was built without the `gpu` feature"
    };
    Error::NoCudaDevice(format!(
        "{what} needs at least one GPU, and {reason}; use decompress() for a key that \
         computes on the CPU"
    ))
}

/// What [`Devices`] accepts, for error messages.
pub(crate) const DEVICES_GRAMMAR: &str = "a count (3: the first three GPUs), -1 or auto \
     (every visible GPU), 0 or cpu (no GPU), GPU indices (\"1, 3\" or \"[1, 3]\"), or one \
     index with a trailing comma (\"3,\": GPU 3 only)";

/// Which GPUs to compute on, in the grammar of PyTorch Lightning's `devices`
/// argument. Ordinals are the driver's, i.e. after `CUDA_VISIBLE_DEVICES`.
///
/// | given              | resolved with 4 visible GPUs | meaning                 |
/// |--------------------|------------------------------|-------------------------|
/// | `3`, `"3"`         | 0, 1, 2                      | the first three GPUs    |
/// | `-1`, `"-1"`, `"auto"` | 0, 1, 2, 3               | every visible GPU       |
/// | `[1, 3]`, `"1, 3"`, `"[1, 3]"` | 1, 3             | GPUs 1 and 3            |
/// | `"3,"`, `[3]`      | 3                            | GPU 3 only              |
/// | `0`, `"0"`, `"cpu"`| (none)                       | no GPU: the CPU only    |
///
/// Text may carry surrounding whitespace; `auto` and `cpu` are case-insensitive.
/// Building a `Devices` never fails (the `From` conversions keep what they are
/// given, text outside the grammar included); [`Devices::resolve`] checks it against
/// the visible GPUs. Parse text with [`str::parse`] to reject bad text right away.
/// [`Display`](std::fmt::Display) writes the canonical text, which parses back to
/// the same value.
///
/// ```
/// use gpufhe::scheduler::Devices;
/// use gpufhe::GpuIndex;
/// let some: Devices = "1, 3".parse()?;
/// assert_eq!(some, Devices::from([1u32, 3]));
/// assert_eq!(some.resolve(4)?, [GpuIndex::new(1), GpuIndex::new(3)]);
/// assert_eq!(Devices::from(3).resolve(4)?.len(), 3);
/// assert_eq!(Devices::from(-1).resolve(2)?.len(), 2);
/// assert!(Devices::cpu().resolve(4)?.is_empty());
/// // Refusals say what is wrong:
/// let err = Devices::from([1u32, 1]).resolve(4).unwrap_err();
/// assert!(err.to_string().contains("GPU 1 is listed twice"), "{err}");
/// assert!("two".parse::<Devices>().is_err());
/// # Ok::<(), gpufhe::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Devices(Request);

/// What was asked, normalized only as far as the input allows.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Request {
    /// Every visible GPU (`-1`, `auto`), which may be none.
    All,
    /// No GPU (`0`, `cpu`).
    Cpu,
    /// The first `k >= 1` GPUs.
    First(u32),
    /// A negative count other than -1: refused by `resolve`.
    Negative(i64),
    /// These GPUs, in this order (possibly empty or repeated: refused by `resolve`).
    List(Vec<GpuIndex>),
    /// Text outside the grammar, given to `From<&str>`, and what is wrong with it.
    Unparsed { text: String, why: String },
}

impl Devices {
    /// Every visible GPU (`-1`); none on a machine without GPUs.
    ///
    /// ```
    /// use gpufhe::scheduler::Devices;
    /// assert_eq!(Devices::all(), "auto".parse()?);
    /// assert_eq!(Devices::all().resolve(3)?.len(), 3);
    /// assert!(Devices::all().resolve(0)?.is_empty());
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub const fn all() -> Self {
        Self(Request::All)
    }

    /// No GPU: compute on the CPU (`0`).
    ///
    /// ```
    /// use gpufhe::scheduler::Devices;
    /// assert_eq!(Devices::cpu(), "CPU".parse()?);
    /// assert!(Devices::cpu().resolve(8)?.is_empty());
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub const fn cpu() -> Self {
        Self(Request::Cpu)
    }

    /// The first `k` visible GPUs (`k`); `first(0)` is [`Devices::cpu`].
    ///
    /// ```
    /// use gpufhe::scheduler::Devices;
    /// use gpufhe::GpuIndex;
    /// assert_eq!(Devices::first(2).resolve(4)?, [GpuIndex::new(0), GpuIndex::new(1)]);
    /// assert!(Devices::first(5).resolve(4).is_err());
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub const fn first(k: u32) -> Self {
        if k == 0 {
            Self::cpu()
        } else {
            Self(Request::First(k))
        }
    }

    /// The GPUs this request means on a machine with `visible` GPUs, in order; an
    /// empty list means the CPU only. `Err` when the request names a GPU twice, a
    /// GPU that is not visible, more GPUs than are visible, a negative count other
    /// than -1, an empty list, or is text outside the grammar; the message quotes
    /// the request. A pure function: it asks no driver.
    ///
    /// ```
    /// use gpufhe::scheduler::Devices;
    /// use gpufhe::GpuIndex;
    /// assert_eq!(Devices::from("3,").resolve(4)?, [GpuIndex::new(3)]);
    /// let err = Devices::from(5).resolve(2).unwrap_err();
    /// assert!(err.to_string().contains("5 GPUs requested, but 2 are visible"), "{err}");
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn resolve(&self, visible: u32) -> Result<Vec<GpuIndex>> {
        let gpus = self.normalize(visible)?;
        self.check_unique(&gpus)?;
        self.check_visible(&gpus, visible)?;
        Ok(gpus)
    }

    /// `k` GPUs this process can use now, the ones with the most free memory first
    /// (ties: the lower index). GPUs in compute mode "prohibited", and GPUs in
    /// exclusive-process mode that another process holds, are skipped. `Err` naming
    /// how many GPUs are usable (and why the others are not) when fewer than `k`
    /// are, or when there is no driver; `auto_select(0)` is [`Devices::cpu`].
    /// Probing retains each GPU's primary context for a moment and releases it.
    ///
    /// ```no_run
    /// use gpufhe::scheduler::Devices;
    /// let devices = Devices::auto_select(2)?;
    /// assert_eq!(devices.resolve(gpufhe::get_number_of_gpus())?.len(), 2);
    /// # Ok::<(), gpufhe::Error>(())
    /// ```
    pub fn auto_select(k: u32) -> Result<Self> {
        if k == 0 {
            return Ok(Self::cpu());
        }
        let probes = probe_gpus()?;
        select_usable(k, &probes).map(Self::from)
    }

    /// `Err` for what is wrong whatever the machine: text outside the grammar, a
    /// negative count other than -1, an empty list, a GPU listed twice.
    pub(crate) fn check_form(&self) -> Result<()> {
        match &self.0 {
            Request::List(gpus) if !gpus.is_empty() => self.check_unique(gpus),
            Request::Negative(_) | Request::List(_) | Request::Unparsed { .. } => {
                self.normalize(u32::MAX).map(drop)
            }
            Request::All | Request::Cpu | Request::First(_) => Ok(()),
        }
    }

    /// The request as a list of GPUs (counts become the first GPUs).
    fn normalize(&self, visible: u32) -> Result<Vec<GpuIndex>> {
        let first = |k: u32| (0..k).map(GpuIndex::new).collect();
        match &self.0 {
            Request::All => Ok(first(visible)),
            Request::Cpu => Ok(Vec::new()),
            Request::First(k) if *k > visible => Err(Error::NoCudaDevice(format!(
                "devices {self}: {} requested, but {visible} are visible",
                count(u64::from(*k), "GPU")
            ))),
            Request::First(k) => Ok(first(*k)),
            Request::Negative(n) => Err(Error::InvalidParameter(format!(
                "devices {n}: a negative count means nothing except -1 (every visible GPU)"
            ))),
            Request::List(gpus) if gpus.is_empty() => Err(Error::InvalidParameter(
                "devices []: the list of GPUs is empty; use 0 or \"cpu\" for no GPU".into(),
            )),
            Request::List(gpus) => Ok(gpus.clone()),
            Request::Unparsed { text, why } => Err(parse_error(text, why)),
        }
    }

    fn check_unique(&self, gpus: &[GpuIndex]) -> Result<()> {
        match gpus
            .iter()
            .enumerate()
            .find(|(i, g)| gpus[..*i].contains(g))
        {
            Some((_, gpu)) => Err(Error::InvalidParameter(format!(
                "devices {self}: {gpu} is listed twice"
            ))),
            None => Ok(()),
        }
    }

    fn check_visible(&self, gpus: &[GpuIndex], visible: u32) -> Result<()> {
        match gpus.iter().find(|g| g.get() >= visible) {
            Some(gpu) => Err(Error::NoCudaDevice(format!(
                "devices {self}: {gpu} requested, but {visible} GPU(s) are visible{}",
                match visible {
                    0 => String::new(),
                    n => format!(" (GPU 0 to GPU {})", n - 1),
                }
            ))),
            None => Ok(()),
        }
    }
}

/// `1 GPU`, `2 GPUs`.
fn count(n: u64, what: &str) -> String {
    match n {
        1 => format!("1 {what}"),
        n => format!("{n} {what}s"),
    }
}

fn parse_error(text: &str, why: &str) -> Error {
    Error::InvalidParameter(format!(
        "devices {text:?} cannot be read: {why}; expected {DEVICES_GRAMMAR}"
    ))
}

/// A count: -1 every GPU, 0 none, `k` the first `k`; `None` if too large.
fn count_request(n: i64) -> Option<Request> {
    match n {
        -1 => Some(Request::All),
        0 => Some(Request::Cpu),
        n if n < 0 => Some(Request::Negative(n)),
        n => u32::try_from(n).ok().map(Request::First),
    }
}

/// Text to a request: a word, a count, or a list (bracketed, or with a comma).
fn parse_request(text: &str) -> std::result::Result<Request, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err("it is empty".into());
    }
    if text.eq_ignore_ascii_case("auto") {
        return Ok(Request::All);
    }
    if text.eq_ignore_ascii_case("cpu") {
        return Ok(Request::Cpu);
    }
    if let Some(inner) = text.strip_prefix('[') {
        let inner = inner.strip_suffix(']').ok_or("a '[' has no matching ']'")?;
        return parse_list(inner);
    }
    if text.contains(',') {
        return parse_list(text);
    }
    let n: i64 = text
        .parse()
        .map_err(|_| format!("{text:?} is neither a number nor a list"))?;
    count_request(n).ok_or_else(|| format!("{n} GPUs is more than there can be"))
}

/// `"1, 3"`, `"3,"` (one trailing comma allowed), or `""` for the empty list.
fn parse_list(items: &str) -> std::result::Result<Request, String> {
    if items.trim().is_empty() {
        return Ok(Request::List(Vec::new()));
    }
    let mut items: Vec<&str> = items.split(',').map(str::trim).collect();
    if items.len() > 1 && items.last() == Some(&"") {
        items.pop();
    }
    items
        .into_iter()
        .map(|item| match item.parse::<i64>() {
            _ if item.is_empty() => Err("a comma with no GPU index before it".into()),
            Ok(i) if i < 0 => Err(format!("GPU index {i} is negative")),
            Ok(i) => u32::try_from(i)
                .map(GpuIndex::new)
                .map_err(|_| format!("GPU index {i} is too large")),
            Err(_) => Err(format!("{item:?} is not a GPU index")),
        })
        .collect::<std::result::Result<_, _>>()
        .map(Request::List)
}

impl std::str::FromStr for Devices {
    type Err = Error;

    /// Reads the grammar of [`Devices`]; `Err` saying what is accepted otherwise.
    fn from_str(text: &str) -> Result<Self> {
        parse_request(text)
            .map(Self)
            .map_err(|why| parse_error(text, &why))
    }
}

impl std::fmt::Display for Devices {
    /// The canonical text: `-1`, `cpu`, `3`, `1,3`, `3,` (one GPU), `[]`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Request::All => write!(f, "-1"),
            Request::Cpu => write!(f, "cpu"),
            Request::First(k) => write!(f, "{k}"),
            Request::Negative(n) => write!(f, "{n}"),
            Request::List(gpus) if gpus.is_empty() => write!(f, "[]"),
            Request::List(gpus) if gpus.len() == 1 => write!(f, "{},", gpus[0].get()),
            Request::List(gpus) => {
                let text: Vec<String> = gpus.iter().map(|g| g.get().to_string()).collect();
                write!(f, "{}", text.join(","))
            }
            Request::Unparsed { text, .. } => write!(f, "{text}"),
        }
    }
}

impl Default for Devices {
    /// Every visible GPU ([`Devices::all`]).
    fn default() -> Self {
        Self::all()
    }
}

impl From<i32> for Devices {
    /// A count: `k >= 1` the first `k` GPUs, 0 none, -1 every visible GPU.
    fn from(count: i32) -> Self {
        match u32::try_from(count) {
            Ok(k) => Self::first(k),
            Err(_) if count == -1 => Self::all(),
            Err(_) => Self(Request::Negative(count.into())),
        }
    }
}

impl From<u32> for Devices {
    /// A count: `k >= 1` the first `k` GPUs, 0 none.
    fn from(count: u32) -> Self {
        Self::first(count)
    }
}

impl From<&str> for Devices {
    /// The text, parsed; text outside the grammar is kept and refused by
    /// [`Devices::resolve`] (use [`str::parse`] to refuse it now).
    fn from(text: &str) -> Self {
        match parse_request(text) {
            Ok(request) => Self(request),
            Err(why) => Self(Request::Unparsed {
                text: text.to_owned(),
                why,
            }),
        }
    }
}

impl From<String> for Devices {
    /// As `From<&str>`.
    fn from(text: String) -> Self {
        Self::from(text.as_str())
    }
}

impl From<GpuIndex> for Devices {
    /// This GPU only.
    fn from(gpu: GpuIndex) -> Self {
        Self(Request::List(vec![gpu]))
    }
}

impl From<Vec<GpuIndex>> for Devices {
    /// These GPUs, in this order.
    fn from(gpus: Vec<GpuIndex>) -> Self {
        Self(Request::List(gpus))
    }
}

impl From<&[GpuIndex]> for Devices {
    /// These GPUs, in this order.
    fn from(gpus: &[GpuIndex]) -> Self {
        Self::from(gpus.to_vec())
    }
}

impl<const N: usize> From<[GpuIndex; N]> for Devices {
    /// These GPUs, in this order.
    fn from(gpus: [GpuIndex; N]) -> Self {
        Self::from(gpus.to_vec())
    }
}

impl From<Vec<u32>> for Devices {
    /// The GPUs of these indices, in this order.
    fn from(gpus: Vec<u32>) -> Self {
        Self::from(gpus.as_slice())
    }
}

impl From<&[u32]> for Devices {
    /// The GPUs of these indices, in this order.
    fn from(gpus: &[u32]) -> Self {
        Self(Request::List(
            gpus.iter().copied().map(GpuIndex::new).collect(),
        ))
    }
}

impl<const N: usize> From<[u32; N]> for Devices {
    /// The GPUs of these indices, in this order.
    fn from(gpus: [u32; N]) -> Self {
        Self::from(gpus.as_slice())
    }
}

impl From<GpuSelection> for Devices {
    /// The selected GPUs, in order.
    fn from(selection: GpuSelection) -> Self {
        Self(Request::List(selection.0))
    }
}

/// The `k` usable GPUs with the most free memory, most first (ties: the lower
/// index), from what [`probe_gpus`] found. `Err` naming how many are usable, and
/// why the others are not, when fewer than `k` are. A pure function.
///
/// ```
/// use gpufhe::scheduler::{select_usable, GpuProbe};
/// use gpufhe::GpuIndex;
/// let gib = 1u64 << 30;
/// let probes = [
///     GpuProbe::usable(GpuIndex::new(0), 10 * gib, 80 * gib),
///     GpuProbe::unusable(GpuIndex::new(1), 80 * gib, "held by another process"),
///     GpuProbe::usable(GpuIndex::new(2), 70 * gib, 80 * gib),
/// ];
/// assert_eq!(select_usable(1, &probes)?, [GpuIndex::new(2)]);
/// let err = select_usable(3, &probes).unwrap_err();
/// assert!(err.to_string().contains("3 GPUs requested, but only 2 of the 3 visible GPUs"), "{err}");
/// # Ok::<(), gpufhe::Error>(())
/// ```
pub fn select_usable(k: u32, probes: &[GpuProbe]) -> Result<Vec<GpuIndex>> {
    let mut usable: Vec<&GpuProbe> = probes.iter().filter(|p| p.is_usable()).collect();
    usable.sort_by(|a, b| b.free_bytes.cmp(&a.free_bytes).then(a.gpu.cmp(&b.gpu)));
    if usable.len() < k as usize {
        let reasons: String = probes
            .iter()
            .filter_map(|p| Some(format!("; {}: {}", p.gpu, p.unusable.as_ref()?)))
            .collect();
        return Err(Error::NoCudaDevice(format!(
            "{} requested, but only {} of the {} are usable{reasons}{}",
            count(u64::from(k), "GPU"),
            usable.len(),
            count(probes.len() as u64, "visible GPU"),
            if cfg!(feature = "gpu") {
                ""
            } else {
                " (gpufhe was built without the `gpu` feature)"
            }
        )));
    }
    Ok(usable[..k as usize].iter().map(|p| p.gpu).collect())
}
