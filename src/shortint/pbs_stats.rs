//! The process-wide count of bootstraps: every blind rotation of a block, on the CPU
//! ([`crate::shortint::ServerKey`]'s) and on the GPUs (the CUDA backend's), whatever
//! key ran it. The high level offers it as `gpufhe::get_pbs_count`.

use std::sync::atomic::{AtomicU64, Ordering};

/// Bootstraps run since the process started or the last [`reset_pbs_count`].
static PBS_COUNT: AtomicU64 = AtomicU64::new(0);

/// Counts `n` bootstraps.
pub(crate) fn count_bootstraps(n: usize) {
    PBS_COUNT.fetch_add(n as u64, Ordering::Relaxed);
}

/// Bootstraps run in this process, on every thread and device, since it started or
/// since [`reset_pbs_count`].
///
/// ```
/// use gpufhe::shortint::{pbs_count, ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let client_key = ClientKey::new(PARAMETERS)?;
/// let server_key = ServerKey::new(&client_key)?;
/// let before = pbs_count();
/// let table = server_key.generate_lookup_table(|x| x + 1)?;
/// let _ = server_key.apply_lookup_table(&client_key.encrypt(2)?, &table)?;
/// assert!(pbs_count() > before);
/// # Ok::<(), gpufhe::Error>(())
/// ```
pub fn pbs_count() -> u64 {
    PBS_COUNT.load(Ordering::Relaxed)
}

/// Sets the count of [`pbs_count`] back to zero.
pub fn reset_pbs_count() {
    PBS_COUNT.store(0, Ordering::Relaxed);
}
