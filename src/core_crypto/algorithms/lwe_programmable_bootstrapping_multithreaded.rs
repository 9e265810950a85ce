//! One blind rotation split over the `k + 1` polynomials of its accumulator, each on
//! its own thread of the current rayon pool: for a bootstrap that would otherwise
//! leave cores idle (fewer bootstraps in a step than threads).
//!
//! The split only happens when the pool has idle threads: the helpers are rayon
//! jobs, and if they are not all picked up within a short wait the calling thread
//! cancels them and rotates alone. No thread is ever created, so the split never
//! runs more compute threads than the pool has, and a busy pool cannot deadlock on
//! helpers that never start.

use super::lwe_programmable_bootstrapping::{
    check_blind_rotation_shapes, multiply_accumulate_ggsw, rotate_by_body, CmuxChain, DigitBuffers,
};
use super::modulus_switch::ModulusSwitchedLweCiphertext;
use crate::core_crypto::entities::{FourierLweBootstrapKey, GlweCiphertext};
use crate::error::Result;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, RwLock};
use std::time::{Duration, Instant};
use tfhe_fft::c64;

/// How long the calling thread waits for idle pool threads to pick up the helpers
/// before it rotates alone: a few wake-ups of a sleeping thread, about 1 % of a
/// bootstrap.
const HELPER_WAIT: Duration = Duration::from_micros(200);

/// Set in a [`Roster`] once the calling thread has decided: no helper may join
/// after it.
const CLOSED: usize = 1 << (usize::BITS - 1);

/// Blind-rotates one accumulator like
/// [`blind_rotate_assign`](super::blind_rotate_assign), with each of its `k + 1`
/// polynomials on its own thread of the current rayon pool: thread `c` rotates,
/// decomposes and transforms polynomial `c`, and after a barrier multiplies every
/// transformed row by column `c` of the GGSW and transforms back into polynomial `c`.
///
/// Bit-identical to the single-threaded rotation, which it falls back to when the
/// pool has a single thread or its other threads stay busy (see the module docs).
///
/// ```
/// use gpufhe::core_crypto::*;
/// use gpufhe::shortint::{ClientKey, ServerKey};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
/// let ck = ClientKey::new(PARAMETERS).unwrap();
/// let sk = ServerKey::new(&ck).unwrap();
/// let p = &PARAMETERS;
/// let small = sk.keyswitch(&ck.encrypt(3).unwrap()).unwrap();
/// let switched =
///     modulus_switch_lwe_ciphertext(&small, p.polynomial_size.log2() + 1, p.modulus_switch)
///         .unwrap();
/// let table = sk.generate_lookup_table(|x| x + 1).unwrap();
/// let (mut one, mut split) = (table.accumulator().clone(), table.accumulator().clone());
/// blind_rotate_assign(&mut one, &switched, sk.bootstrap_key()).unwrap();
/// let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// pool.install(|| blind_rotate_assign_multithreaded(&mut split, &switched, sk.bootstrap_key()))
///     .unwrap();
/// assert_eq!(one, split);
/// ```
pub fn blind_rotate_assign_multithreaded<C>(
    acc: &mut GlweCiphertext<C>,
    switched: &ModulusSwitchedLweCiphertext,
    bsk: &FourierLweBootstrapKey,
) -> Result<()>
where
    C: AsRef<[u64]> + AsMut<[u64]> + Send,
{
    check_blind_rotation_shapes(acc, switched, bsk)?;
    let shape = bsk.shape();
    let n = shape.polynomial_size.0;
    let glwe_size = shape.glwe_dimension.0 + 1;
    rotate_by_body(acc.as_mut_slice(), switched.body, n);
    let split = glwe_size > 1
        && rayon::current_num_threads() > 1
        && split_rotation(acc.as_mut_slice(), &switched.mask, bsk);
    if !split {
        pulp::Arch::new().dispatch(CmuxChain {
            accs: vec![acc.as_mut_slice()],
            masks: vec![&switched.mask],
            bsk,
        });
    }
    Ok(())
}

/// Runs the CMux chain of `acc` with one polynomial per thread; `false` (with `acc`
/// untouched) if the helpers did not all start in time.
fn split_rotation(acc: &mut [u64], mask: &[usize], bsk: &FourierLweBootstrapKey) -> bool {
    let shape = bsk.shape();
    let n = shape.polynomial_size.0;
    let glwe_size = shape.glwe_dimension.0 + 1;
    let rows = shape.level.0 * (n / 2);
    // Two sets of transformed rows, alternating between CMuxes, so that one barrier
    // per CMux separates every write from the reads of the other threads.
    let shared = SplitChain {
        slots: (0..2 * glwe_size)
            .map(|_| RwLock::new(vec![c64::default(); rows]))
            .collect(),
        barrier: SpinBarrier::new(glwe_size),
        roster: Roster::default(),
        mask,
        bsk,
    };
    let mut polys = acc.chunks_exact_mut(n).enumerate();
    let Some((_, first)) = polys.next() else {
        return false;
    };
    let shared = &shared;
    let mut started = false;
    rayon::scope(|scope| {
        for (c, poly) in polys {
            scope.spawn(move |_| {
                // A helper that joined waits at the start barrier for the decision.
                if shared.roster.claim() && shared.barrier.wait() {
                    shared.run(c, poly);
                }
            });
        }
        started = shared.roster.all_joined(glwe_size - 1);
        if started {
            if shared.barrier.wait() {
                shared.run(0, first);
            }
        } else {
            // Wakes the helpers that did join; they leave without touching `acc`.
            shared.barrier.poison();
        }
    });
    started
}

/// The state shared by the threads of a split blind rotation.
struct SplitChain<'a> {
    slots: Vec<RwLock<Vec<c64>>>,
    barrier: SpinBarrier,
    roster: Roster,
    mask: &'a [usize],
    bsk: &'a FourierLweBootstrapKey,
}

/// The helpers that joined a split, with [`CLOSED`] once the calling thread decided.
#[derive(Default)]
struct Roster(AtomicUsize);

impl Roster {
    /// A helper joins, unless the calling thread has already decided.
    fn claim(&self) -> bool {
        let mut seen = self.0.load(Ordering::Acquire);
        loop {
            if seen & CLOSED != 0 {
                return false;
            }
            match self
                .0
                .compare_exchange_weak(seen, seen + 1, Ordering::AcqRel, Ordering::Acquire)
            {
                Ok(_) => return true,
                Err(now) => seen = now,
            }
        }
    }

    /// Waits up to [`HELPER_WAIT`] for `helpers` helpers to join; afterwards no
    /// other may. `true` if they all joined.
    fn all_joined(&self, helpers: usize) -> bool {
        let deadline = Instant::now() + HELPER_WAIT;
        loop {
            if self.0.load(Ordering::Acquire) == helpers {
                return true;
            }
            if Instant::now() >= deadline {
                let before = self.0.fetch_or(CLOSED, Ordering::AcqRel);
                return before == helpers;
            }
            std::hint::spin_loop();
        }
    }
}

impl SplitChain<'_> {
    /// The CMux chain of polynomial `c`.
    fn run(&self, c: usize, poly: &mut [u64]) {
        struct Chain<'a, 'b>(&'a SplitChain<'b>, usize, &'a mut [u64]);
        impl pulp::WithSimd for Chain<'_, '_> {
            type Output = ();
            #[inline(always)]
            fn with_simd<S: pulp::Simd>(self, simd: S) {
                self.0.run_simd(simd, self.1, self.2)
            }
        }
        pulp::Arch::new().dispatch(Chain(self, c, poly))
    }

    #[inline(always)]
    fn run_simd<S: pulp::Simd>(&self, simd: S, c: usize, poly: &mut [u64]) {
        let shape = self.bsk.shape();
        let glwe_size = shape.glwe_dimension.0 + 1;
        let half = shape.polynomial_size.to_fourier_polynomial_size();
        let mut digits = DigitBuffers::new(self.bsk);
        let mut out = vec![c64::default(); half];
        let mut parity = 0;
        for (i, &a) in self.mask.iter().enumerate() {
            if a == 0 {
                continue;
            }
            let set = &self.slots[parity * glwe_size..][..glwe_size];
            parity ^= 1;
            {
                let mut mine = set[c].write().unwrap_or_else(|p| p.into_inner());
                digits.forward(simd, poly, a, &mut mine);
            }
            if !self.barrier.wait() {
                return;
            }
            {
                let guards: Vec<_> = set
                    .iter()
                    .map(|s| s.read().unwrap_or_else(|p| p.into_inner()))
                    .collect();
                let rows: Vec<&[c64]> = guards.iter().flat_map(|g| g.chunks_exact(half)).collect();
                multiply_accumulate_ggsw(simd, &mut out, &rows, self.bsk.ggsw(i), glwe_size, c);
            }
            digits.backward_add(simd, poly, &mut out);
        }
    }
}

/// A barrier for a few threads: waiters spin briefly (a CMux lasts ~10 µs, less than
/// a sleeping thread's wake-up), then sleep, so a thread descheduled by a busy system
/// does not make its partner burn a core.
struct SpinBarrier {
    threads: usize,
    arrived: AtomicUsize,
    generation: AtomicUsize,
    poisoned: AtomicBool,
    sleepers: Mutex<usize>,
    wake: Condvar,
}

impl SpinBarrier {
    fn new(threads: usize) -> Self {
        Self {
            threads,
            arrived: AtomicUsize::new(0),
            generation: AtomicUsize::new(0),
            poisoned: AtomicBool::new(false),
            sleepers: Mutex::new(0),
            wake: Condvar::new(),
        }
    }

    /// Waits for every thread; `false` if the barrier was poisoned.
    fn wait(&self) -> bool {
        let generation = self.generation.load(Ordering::Acquire);
        if self.poisoned.load(Ordering::Acquire) {
            return false;
        }
        if self.arrived.fetch_add(1, Ordering::AcqRel) + 1 == self.threads {
            self.arrived.store(0, Ordering::Relaxed);
            self.release();
            return !self.poisoned.load(Ordering::Acquire);
        }
        for _ in 0..4_000 {
            if self.generation.load(Ordering::Acquire) != generation {
                return !self.poisoned.load(Ordering::Acquire);
            }
            std::hint::spin_loop();
        }
        let mut sleepers = self.sleepers.lock().unwrap_or_else(|p| p.into_inner());
        *sleepers += 1;
        while self.generation.load(Ordering::Acquire) == generation
            && !self.poisoned.load(Ordering::Acquire)
        {
            sleepers = self.wake.wait(sleepers).unwrap_or_else(|p| p.into_inner());
        }
        *sleepers -= 1;
        !self.poisoned.load(Ordering::Acquire)
    }

    /// Starts the next generation and wakes the sleepers. The generation changes under
    /// the lock, so a thread about to sleep either sees it or is woken.
    fn release(&self) {
        let sleepers = self.sleepers.lock().unwrap_or_else(|p| p.into_inner());
        self.generation.fetch_add(1, Ordering::Release);
        if *sleepers > 0 {
            self.wake.notify_all();
        }
    }

    /// Releases every waiting thread with a failure.
    fn poison(&self) {
        self.poisoned.store(true, Ordering::Release);
        self.release();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_poisoned_barrier_releases_early_and_late_arrivals() {
        let barrier = SpinBarrier::new(3);
        std::thread::scope(|s| {
            let early = s.spawn(|| barrier.wait());
            std::thread::sleep(Duration::from_millis(20));
            barrier.poison();
            assert!(!early.join().unwrap());
        });
        assert!(!barrier.wait(), "an arrival after the poison must not wait");
    }

    #[test]
    fn helpers_cannot_join_after_the_decision() {
        let late = Roster::default();
        assert!(!late.all_joined(1), "no helper joined in time");
        assert!(
            !late.claim(),
            "a helper arriving after the decision must not join"
        );
        let on_time = Roster::default();
        assert!(on_time.claim());
        assert!(on_time.all_joined(1));
        let partial = Roster::default();
        assert!(partial.claim());
        assert!(!partial.all_joined(2), "one of two helpers is not enough");
        assert!(!partial.claim());
    }
}
