//! The memory budget: what an operation whose output is larger than its input may
//! allocate.
//!
//! Some operations turn a few bytes into many: expanding a
//! [`CompactCiphertextList`](crate::CompactCiphertextList) (up to about 1,024× on the
//! default parameters), reading values out of a
//! [`CompressedCiphertextList`](crate::CompressedCiphertextList), decompressing a
//! server key to the CPU or to a GPU (about 2(k + 1)×), generating keys, encrypting a
//! list with a public key. Each computes exactly what it needs before allocating
//! anything and calls [`check_host_memory`] (or, for a GPU, checks the device's
//! budget); over the budget it is an [`Error::OutOfMemory`] (or
//! [`Error::OutOfDeviceMemory`]) naming the need and the limit, never an abort.
//!
//! The budget is a [`MemoryLimit`]: set in code with [`set_memory_limit`] (code wins),
//! else read from [`ENV_MEMORY_LIMIT`] (`GPUFHE_MEMORY_LIMIT`), else
//! [`DEFAULT_MEMORY_LIMIT`], 75 % of what is available. On Linux, *available* is the
//! least of the kernel's `MemAvailable`, the room left under the cgroup memory
//! limits of the process (v2 with its ancestors, or v1) and under its address-space
//! and data-size limits (`ulimit -v`, `ulimit -d`); for a GPU, the device's free
//! memory. Where none of these can be read, only what can actually be reserved is
//! checked.
//!
//! The budget is the process's, not each call's: an operation reserves what it
//! needs ([`reserve_host_memory`], a [`MemoryReservation`]) before it allocates and
//! gives it back when it is done, and a reservation succeeds only while all those
//! in flight together stay within the budget. A later one that would go over
//! waits for the others to finish (at most [`MAX_RESERVATION_WAIT`]) where waiting
//! is safe (a thread of its own, holding no reservation), and is an
//! [`Error::OutOfMemory`] otherwise (on a rayon worker, or while holding one: a
//! wait there could wait on itself). A GPU's budget is kept the same way, per
//! device.
//!
//! ```
//! use gpufhe::memory::{check_host_memory, set_memory_limit, MemoryLimit};
//! set_memory_limit(MemoryLimit::Bytes(1 << 30));
//! assert!(check_host_memory(1 << 20, "a small expansion").is_ok());
//! let err = check_host_memory(4 << 30, "expanding a compact list").unwrap_err();
//! assert!(err.to_string().contains("needs 4294967296 bytes"), "{err}");
//! set_memory_limit(None); // back to GPUFHE_MEMORY_LIMIT or the default
//! ```

use crate::error::{Error, Result};
use std::cell::Cell;
use std::collections::BTreeMap;
use std::sync::{Condvar, Mutex, MutexGuard, RwLock};
use std::time::{Duration, Instant};

/// The environment variable of the memory budget: a number of bytes with an
/// optional unit (`K`, `M`, `G`, `T`, powers of 1,024, with or without `iB`/`B`:
/// `8GiB`, `512M`, `1000000`), or a share of the available memory (`50%`).
pub const ENV_MEMORY_LIMIT: &str = "GPUFHE_MEMORY_LIMIT";

/// The budget when neither code nor [`ENV_MEMORY_LIMIT`] sets one.
pub const DEFAULT_MEMORY_LIMIT: MemoryLimit = MemoryLimit::Share(75);

/// How much memory the expansions in flight may take together.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemoryLimit {
    /// At most this many bytes (on a GPU, also at most its free memory).
    Bytes(u64),
    /// This percentage (1 to 100) of the memory available when the operation starts.
    Share(u8),
}

/// What [`ENV_MEMORY_LIMIT`] accepts, as its error message says it.
const EXPECTED: &str = "a number of bytes >= 1 with an optional unit K, M, G or T (powers of \
     1024, e.g. 8GiB, 512M), or a share of the available memory from 1% to 100%; default 75%";

impl MemoryLimit {
    /// Reads `text` as [`ENV_MEMORY_LIMIT`] writes it; `Err` names what is expected.
    ///
    /// ```
    /// use gpufhe::memory::MemoryLimit;
    /// assert_eq!(MemoryLimit::parse("8GiB"), Ok(MemoryLimit::Bytes(8 << 30)));
    /// assert_eq!(MemoryLimit::parse(" 512 M "), Ok(MemoryLimit::Bytes(512 << 20)));
    /// assert_eq!(MemoryLimit::parse("50%"), Ok(MemoryLimit::Share(50)));
    /// assert!(MemoryLimit::parse("0").is_err());
    /// assert!(MemoryLimit::parse("120%").is_err());
    /// assert!(MemoryLimit::parse("99999999T").is_err()); // over 2^64 bytes
    /// assert!(MemoryLimit::parse("lots").is_err());
    /// ```
    pub fn parse(text: &str) -> std::result::Result<Self, String> {
        let text = text.trim();
        if let Some(percent) = text.strip_suffix('%') {
            return match percent.trim().parse::<u8>() {
                Ok(p @ 1..=100) => Ok(Self::Share(p)),
                _ => Err(EXPECTED.to_string()),
            };
        }
        let digits = text
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(text.len());
        let (number, unit) = text.split_at(digits);
        let shift = match unit.trim().to_ascii_uppercase().as_str() {
            "" | "B" => 0,
            "K" | "KB" | "KIB" => 10,
            "M" | "MB" | "MIB" => 20,
            "G" | "GB" | "GIB" => 30,
            "T" | "TB" | "TIB" => 40,
            _ => return Err(EXPECTED.to_string()),
        };
        number
            .parse::<u64>()
            .ok()
            .filter(|&n| n >= 1)
            .and_then(|n| n.checked_mul(1u64 << shift))
            .map(Self::Bytes)
            .ok_or_else(|| EXPECTED.to_string())
    }

    /// The bytes this limit allows when `available` bytes are available (`None`:
    /// unknown, then a share allows anything and only the reservation is checked).
    ///
    /// ```
    /// use gpufhe::memory::MemoryLimit;
    /// assert_eq!(MemoryLimit::Share(75).bytes(Some(1000)), 750);
    /// assert_eq!(MemoryLimit::Bytes(300).bytes(Some(1000)), 300);
    /// assert_eq!(MemoryLimit::Share(75).bytes(None), u64::MAX);
    /// ```
    pub fn bytes(self, available: Option<u64>) -> u64 {
        match (self, available) {
            (Self::Bytes(bytes), _) => bytes,
            (Self::Share(p), Some(available)) => {
                (u128::from(available) * u128::from(p) / 100) as u64
            }
            (Self::Share(_), None) => u64::MAX,
        }
    }
}

impl std::fmt::Display for MemoryLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Bytes(bytes) => write!(f, "{bytes} bytes"),
            Self::Share(p) => write!(f, "{p}% of the available memory"),
        }
    }
}

/// The limit set in code, if any.
static CODE_LIMIT: RwLock<Option<MemoryLimit>> = RwLock::new(None);

/// Sets the memory budget of the process (`None`: back to [`ENV_MEMORY_LIMIT`] or
/// [`DEFAULT_MEMORY_LIMIT`]). A value set here wins over the variable.
pub fn set_memory_limit(limit: impl Into<Option<MemoryLimit>>) {
    *CODE_LIMIT.write().unwrap_or_else(|e| e.into_inner()) = limit.into();
}

/// The memory budget in force: set in code, else [`ENV_MEMORY_LIMIT`], else
/// [`DEFAULT_MEMORY_LIMIT`] (also when the variable is empty).
/// `Err(InvalidConfiguration)` if the variable is set to something
/// [`MemoryLimit::parse`] refuses.
pub fn memory_limit() -> Result<MemoryLimit> {
    if let Some(limit) = *CODE_LIMIT.read().unwrap_or_else(|e| e.into_inner()) {
        return Ok(limit);
    }
    // Unset, empty or only whitespace: the default (as the scheduler's variables).
    let Some(value) =
        std::env::var_os(ENV_MEMORY_LIMIT).filter(|v| !v.to_string_lossy().trim().is_empty())
    else {
        return Ok(DEFAULT_MEMORY_LIMIT);
    };
    let value = value.to_string_lossy();
    MemoryLimit::parse(&value).map_err(|expected| Error::InvalidConfiguration {
        variable: ENV_MEMORY_LIMIT.to_string(),
        value: value.into_owned(),
        expected,
    })
}

/// The host memory available to this process now, in bytes (see the module docs);
/// `None` where it cannot be read.
pub fn available_host_memory() -> Option<u64> {
    let read = |path: &str| std::fs::read_to_string(path).ok();
    let meminfo = read("/proc/meminfo").and_then(|text| meminfo_available(&text));
    let limits = read("/proc/self/limits").zip(read("/proc/self/status"));
    let rlimit = limits.and_then(|(limits, status)| rlimit_room(&limits, &status));
    let cgroup = read("/proc/self/cgroup").and_then(|text| cgroup_room(&text, &read));
    [meminfo, rlimit, cgroup].into_iter().flatten().min()
}

/// `MemAvailable` of `/proc/meminfo`, in bytes.
fn meminfo_available(meminfo: &str) -> Option<u64> {
    meminfo
        .lines()
        .find_map(|line| line.strip_prefix("MemAvailable:"))
        .and_then(kib)
}

/// `"  123 kB"` in bytes.
fn kib(field: &str) -> Option<u64> {
    let kib: u64 = field.trim().strip_suffix("kB")?.trim().parse().ok()?;
    kib.checked_mul(1024)
}

/// The room under the process's address-space and data-size limits
/// (`/proc/self/limits`) given its current sizes (`VmSize`, `VmData` of
/// `/proc/self/status`).
fn rlimit_room(limits: &str, status: &str) -> Option<u64> {
    let limit = |name: &str| {
        let rest = limits.lines().find_map(|line| line.strip_prefix(name))?;
        rest.split_whitespace().next()?.parse::<u64>().ok()
    };
    let used = |name: &str| {
        let field = status.lines().find_map(|line| line.strip_prefix(name))?;
        kib(field)
    };
    let room = |limit: Option<u64>, used: Option<u64>| Some(limit?.saturating_sub(used?));
    let address_space = room(limit("Max address space"), used("VmSize:"));
    let data = room(limit("Max data size"), used("VmData:"));
    address_space.into_iter().chain(data).min()
}

/// The room under the memory limits of the process's cgroup (`/proc/self/cgroup`)
/// and, for cgroup v2, of its ancestors; `read` reads a file.
fn cgroup_room(cgroups: &str, read: &impl Fn(&str) -> Option<String>) -> Option<u64> {
    let number = |text: Option<String>| text?.trim().parse::<u64>().ok();
    let mut rooms = Vec::new();
    for line in cgroups.lines() {
        let mut fields = line.splitn(3, ':');
        let (_, controllers, path) = (fields.next(), fields.next(), fields.next());
        let (Some(controllers), Some(path)) = (controllers, path) else {
            continue;
        };
        if controllers.is_empty() {
            // v2: the limits of the group and of every group above it apply.
            let mut dir = path.trim_end_matches('/').to_string();
            loop {
                let base = format!("/sys/fs/cgroup{dir}");
                let max = number(read(&format!("{base}/memory.max")));
                let current = number(read(&format!("{base}/memory.current")));
                if let (Some(max), Some(current)) = (max, current) {
                    rooms.push(max.saturating_sub(current));
                }
                match dir.rfind('/') {
                    Some(at) if !dir.is_empty() => dir.truncate(at),
                    _ => break,
                }
            }
        } else if controllers.split(',').any(|c| c == "memory") {
            let base = format!("/sys/fs/cgroup/memory{}", path.trim_end_matches('/'));
            let max = number(read(&format!("{base}/memory.limit_in_bytes")));
            let used = number(read(&format!("{base}/memory.usage_in_bytes")));
            if let (Some(max), Some(used)) = (max, used) {
                rooms.push(max.saturating_sub(used));
            }
        }
    }
    rooms.into_iter().min()
}

/// `Err` unless `need` bytes are within `limit` of `available`, for `what`.
fn check_budget(need: u64, what: &str, limit: MemoryLimit, available: Option<u64>) -> Result<u64> {
    let allowed = limit.bytes(available);
    if need <= allowed {
        return Ok(allowed);
    }
    let available = available.map_or_else(String::new, |a| format!(", {a} bytes available"));
    Err(Error::OutOfMemory(format!(
        "{what} needs {need} bytes, above the memory limit of {allowed} bytes ({limit}{available}; \
         set {ENV_MEMORY_LIMIT} or gpufhe::memory::set_memory_limit to change it)"
    )))
}

/// The longest a reservation waits for operations in flight to give memory back
/// before it is an [`Error::OutOfMemory`]: one minute.
pub const MAX_RESERVATION_WAIT: Duration = Duration::from_secs(60);

/// What a reservation is taken from: the host's budget or one GPU's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Pool {
    Host,
    #[cfg_attr(not(feature = "gpu"), allow(dead_code))]
    Device(usize),
}

/// The bytes reserved now, per pool, and the signal that some were given back.
static RESERVED: Mutex<BTreeMap<Pool, u64>> = Mutex::new(BTreeMap::new());
static GIVEN_BACK: Condvar = Condvar::new();

thread_local! {
    /// How many reservations this thread holds (it never waits while it holds one).
    static HELD: Cell<usize> = const { Cell::new(0) };
}

fn ledger() -> MutexGuard<'static, BTreeMap<Pool, u64>> {
    RESERVED.lock().unwrap_or_else(|e| e.into_inner())
}

/// A share of the memory budget held by an operation in flight (see the module
/// docs): taken by [`reserve_host_memory`] before the operation allocates, given
/// back when dropped.
///
/// ```
/// use gpufhe::memory::{reserve_host_memory, set_memory_limit, MemoryLimit};
/// set_memory_limit(MemoryLimit::Bytes(1 << 20));
/// let first = reserve_host_memory(600 << 10, "one expansion").unwrap();
/// // Together over the budget (and this thread holds a reservation: no wait).
/// let err = reserve_host_memory(600 << 10, "another expansion").unwrap_err();
/// assert!(err.to_string().contains("in flight"), "{err}");
/// drop(first);
/// let second = reserve_host_memory(600 << 10, "another expansion");
/// set_memory_limit(None);
/// assert_eq!(second.unwrap().bytes(), 600 << 10);
/// ```
#[derive(Debug)]
#[must_use = "the memory is given back when the reservation is dropped: hold it while allocating"]
pub struct MemoryReservation {
    pool: Pool,
    bytes: u64,
    /// Given back on the thread that took it (which counts what it holds).
    _on_this_thread: std::marker::PhantomData<*const ()>,
}

impl MemoryReservation {
    /// The bytes reserved.
    ///
    /// ```
    /// let r = gpufhe::memory::reserve_host_memory(1000, "a list").unwrap();
    /// assert_eq!(r.bytes(), 1000);
    /// ```
    pub fn bytes(&self) -> u64 {
        self.bytes
    }
}

impl Drop for MemoryReservation {
    fn drop(&mut self) {
        let mut reserved = ledger();
        if let Some(total) = reserved.get_mut(&self.pool) {
            *total = total.saturating_sub(self.bytes);
        }
        drop(reserved);
        HELD.with(|held| held.set(held.get().saturating_sub(1)));
        GIVEN_BACK.notify_all();
    }
}

/// The host bytes reserved now by operations in flight.
///
/// ```
/// use gpufhe::memory::{reserve_host_memory, reserved_host_memory};
/// let before = reserved_host_memory();
/// let r = reserve_host_memory(1000, "a list").unwrap();
/// assert!(reserved_host_memory() >= before + 1000);
/// ```
pub fn reserved_host_memory() -> u64 {
    ledger().get(&Pool::Host).copied().unwrap_or(0)
}

/// Reserves `need` bytes of `pool` for `what` once those in flight leave room
/// under `allowed()` (the budget now; `Err` if `need` alone is over it).
fn reserve(
    pool: Pool,
    need: u64,
    what: &str,
    allowed: impl Fn() -> Result<u64>,
) -> Result<MemoryReservation> {
    let may_wait = HELD.with(Cell::get) == 0 && rayon::current_thread_index().is_none();
    let deadline = Instant::now() + MAX_RESERVATION_WAIT;
    let mut reserved = ledger();
    loop {
        let in_flight = reserved.get(&pool).copied().unwrap_or(0);
        let now = Instant::now();
        let allowed = match allowed() {
            Ok(allowed) => allowed,
            // Over the budget alone, but what those in flight hold may come back.
            Err(_) if in_flight > 0 && may_wait && now < deadline => {
                reserved = wait(reserved, deadline - now);
                continue;
            }
            Err(e) => return Err(e),
        };
        if in_flight.saturating_add(need) <= allowed {
            *reserved.entry(pool).or_insert(0) += need;
            HELD.with(|held| held.set(held.get() + 1));
            return Ok(MemoryReservation {
                pool,
                bytes: need,
                _on_this_thread: std::marker::PhantomData,
            });
        }
        if !may_wait || now >= deadline {
            let waited = if may_wait {
                format!(" after waiting {} s", MAX_RESERVATION_WAIT.as_secs())
            } else {
                String::new()
            };
            let message = format!(
                "{what} needs {need} bytes, but operations in flight hold {in_flight} of the \
                 budget of {allowed} bytes{waited} (set {ENV_MEMORY_LIMIT} or \
                 gpufhe::memory::set_memory_limit to change it, or run fewer at once)"
            );
            return Err(match pool {
                Pool::Host => Error::OutOfMemory(message),
                Pool::Device(_) => Error::OutOfDeviceMemory(message),
            });
        }
        reserved = wait(reserved, deadline - now);
    }
}

/// Waits at most `timeout` for a reservation to be given back.
fn wait(
    reserved: MutexGuard<'static, BTreeMap<Pool, u64>>,
    timeout: Duration,
) -> MutexGuard<'static, BTreeMap<Pool, u64>> {
    GIVEN_BACK
        .wait_timeout(reserved, timeout)
        .unwrap_or_else(|e| e.into_inner())
        .0
}

/// Reserves `need` bytes of host memory for `what` (see the module docs) until
/// the [`MemoryReservation`] is dropped. `Err(OutOfMemory)` if `need` is over the
/// budget ([`memory_limit`] of [`available_host_memory`]), if the system cannot
/// give that much now, or if operations in flight hold too much of the budget
/// (after waiting, where waiting is safe); `Err(InvalidConfiguration)` if
/// [`ENV_MEMORY_LIMIT`] is invalid. Called before expanding anything, so that a
/// request the machine cannot meet is an error, not an abort.
///
/// ```
/// use gpufhe::memory::{reserve_host_memory, set_memory_limit, MemoryLimit};
/// set_memory_limit(MemoryLimit::Bytes(1 << 30));
/// let err = reserve_host_memory(4 << 30, "expanding a compact list").unwrap_err();
/// set_memory_limit(None);
/// assert!(err.to_string().contains("needs 4294967296 bytes"), "{err}");
/// ```
pub fn reserve_host_memory(need: u64, what: &str) -> Result<MemoryReservation> {
    let limit = memory_limit()?;
    let reservation = reserve(Pool::Host, need, what, || {
        let available = match limit {
            MemoryLimit::Share(_) => available_host_memory(),
            MemoryLimit::Bytes(_) => None,
        };
        check_budget(need, what, limit, available)
    })?;
    let fail = || {
        Error::OutOfMemory(format!(
            "{what} needs {need} bytes of host memory, which cannot be reserved"
        ))
    };
    let len = usize::try_from(need).map_err(|_| fail())?;
    let mut probe: Vec<u8> = Vec::new();
    probe.try_reserve_exact(len).map_err(|_| fail())?;
    Ok(reservation)
}

/// [`reserve_host_memory`] given back at once: `Ok` if `need` bytes of host
/// memory could be reserved now, for `what`.
///
/// ```
/// assert!(gpufhe::memory::check_host_memory(1 << 20, "a small expansion").is_ok());
/// assert!(gpufhe::memory::check_host_memory(u64::MAX, "everything").is_err());
/// ```
pub fn check_host_memory(need: u64, what: &str) -> Result<()> {
    reserve_host_memory(need, what).map(drop)
}

/// Reserves `need` bytes of GPU `ordinal`'s budget for `what`: within the budget
/// of the device's `free()` bytes (a share of them, or a byte limit also capped by
/// them) together with the reservations in flight on that device;
/// `Err(OutOfDeviceMemory)` otherwise.
#[cfg_attr(not(feature = "gpu"), allow(dead_code))]
pub(crate) fn reserve_device_memory(
    ordinal: usize,
    need: u64,
    what: &str,
    free: impl Fn() -> Result<u64>,
) -> Result<MemoryReservation> {
    let limit = memory_limit()?;
    reserve(Pool::Device(ordinal), need, what, || {
        let free = free()?;
        match check_budget(need, what, limit, Some(free)) {
            Ok(allowed) if need <= free => Ok(allowed.min(free)),
            Ok(_) => Err(Error::OutOfDeviceMemory(format!(
                "{what} needs {need} bytes, {free} bytes are free"
            ))),
            Err(Error::OutOfMemory(message)) => Err(Error::OutOfDeviceMemory(message)),
            Err(e) => Err(e),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_and_shares_parse_and_bad_values_are_refused() {
        for (text, bytes) in [
            ("1", 1),
            ("1024", 1024),
            ("2K", 2048),
            ("2kib", 2048),
            ("3 MB", 3 << 20),
            ("4G", 4 << 30),
            ("5TiB", 5 << 40),
        ] {
            assert_eq!(
                MemoryLimit::parse(text),
                Ok(MemoryLimit::Bytes(bytes)),
                "{text}"
            );
        }
        assert_eq!(MemoryLimit::parse("100%"), Ok(MemoryLimit::Share(100)));
        assert_eq!(MemoryLimit::parse(" 1 %"), Ok(MemoryLimit::Share(1)));
        for bad in [
            "",
            "0",
            "0%",
            "101%",
            "-1",
            "1.5G",
            "G",
            "4 GG",
            "%",
            "18446744073709551616",
            "16777216T",
            "1e9",
            "50 % %",
        ] {
            let err = MemoryLimit::parse(bad).unwrap_err();
            assert!(err.contains("default 75%"), "{bad}: {err}");
        }
    }

    #[test]
    fn availability_is_read_from_meminfo_limits_and_cgroups() {
        let meminfo =
            "MemTotal:       24000000 kB\nMemFree:  100 kB\nMemAvailable:   20000000 kB\n";
        assert_eq!(meminfo_available(meminfo), Some(20_000_000 * 1024));
        assert_eq!(meminfo_available("MemTotal: 1 kB\n"), None);

        let limits = "Limit                     Soft Limit           Hard Limit           Units\n\
                      Max data size             unlimited            unlimited            bytes\n\
                      Max address space         4294967296           unlimited            bytes\n";
        let status = "Name:\ttest\nVmSize:\t 1048576 kB\nVmData:\t  524288 kB\n";
        assert_eq!(rlimit_room(limits, status), Some(3 << 30));
        let unlimited = limits.replace("4294967296", "unlimited");
        assert_eq!(rlimit_room(&unlimited, status), None);

        let files = |path: &str| {
            Some(
                match path {
                    "/sys/fs/cgroup/a/b/memory.max" => "max",
                    "/sys/fs/cgroup/a/b/memory.current" => "100",
                    "/sys/fs/cgroup/a/memory.max" => "1000",
                    "/sys/fs/cgroup/a/memory.current" => "400",
                    "/sys/fs/cgroup/memory/x/memory.limit_in_bytes" => "5000",
                    "/sys/fs/cgroup/memory/x/memory.usage_in_bytes" => "1000",
                    _ => return None,
                }
                .to_string(),
            )
        };
        // v2: "max" means none; the parent's 1,000 bytes with 400 used leave 600.
        assert_eq!(cgroup_room("0::/a/b\n", &files), Some(600));
        assert_eq!(cgroup_room("4:cpu,memory:/x\n", &files), Some(4000));
        assert_eq!(cgroup_room("0::/\n", &files), None);
        assert_eq!(cgroup_room("garbage", &files), None);
    }

    #[test]
    fn the_budget_names_the_need_and_the_limit() {
        assert_eq!(
            check_budget(750, "x", MemoryLimit::Share(75), Some(1000)).unwrap(),
            750
        );
        let err = check_budget(751, "expanding a list", MemoryLimit::Share(75), Some(1000));
        let text = err.unwrap_err().to_string();
        assert!(text.contains("expanding a list needs 751 bytes"), "{text}");
        assert!(
            text.contains("limit of 750 bytes (75% of the available memory, 1000 bytes available")
        );
        assert!(text.contains(ENV_MEMORY_LIMIT), "{text}");
        assert!(check_budget(u64::MAX, "x", MemoryLimit::Share(75), None).is_ok());
        assert!(check_budget(11, "x", MemoryLimit::Bytes(10), Some(1 << 40)).is_err());
    }

    #[test]
    fn reservations_in_flight_share_the_budget_and_waiters_get_their_turn() {
        // A pool no operation uses, with a budget of 1,000 bytes.
        let pool = Pool::Device(usize::MAX);
        let budget = || Ok(1000);
        let first = reserve(pool, 600, "first", budget).unwrap();
        // This thread holds one: refused at once, naming what is in flight.
        let err = reserve(pool, 600, "second", budget).unwrap_err();
        assert!(
            err.to_string()
                .contains("second needs 600 bytes, but operations in flight hold 600"),
            "{err}"
        );
        // A thread of its own waits until the first is given back.
        let (sender, receiver) = std::sync::mpsc::channel();
        let waiter = std::thread::spawn(move || {
            sender.send(()).unwrap();
            reserve(pool, 600, "second", budget).map(|r| r.bytes())
        });
        receiver.recv().unwrap();
        std::thread::sleep(Duration::from_millis(50));
        assert!(!waiter.is_finished());
        drop(first);
        assert_eq!(waiter.join().unwrap().unwrap(), 600);
        assert_eq!(ledger().get(&pool), Some(&0));
        // Over the budget alone with nothing in flight: no wait.
        assert!(reserve(pool, 1001, "x", || Err(Error::OutOfMemory("x".into()))).is_err());
    }

    #[test]
    fn this_machine_has_some_memory_available() {
        if cfg!(target_os = "linux") {
            let available = available_host_memory().expect("/proc/meminfo is readable");
            assert!(available > 1 << 20, "{available}");
        }
    }
}
