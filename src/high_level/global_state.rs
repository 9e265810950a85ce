//! The server key of each thread: [`set_server_key`], [`unset_server_key`],
//! [`with_server_key_as_context`], [`clear_gpu_thread_locals`], and the
//! process-wide bootstrap counter
//! ([`get_pbs_count`], [`reset_pbs_count`]).

use crate::error::{Error, Result};
use crate::high_level::keys::cuda::CudaServerKey;
use crate::high_level::keys::server::ServerKey;
use std::cell::RefCell;

/// What the current thread computes with: nothing, a server key, or the error of a
/// key that could not be made (see [`IntoServerKey`]).
type ThreadKey = Option<Result<ServerKey>>;

thread_local! {
    /// The server key of the current thread.
    static SERVER_KEY: RefCell<ThreadKey> = const { RefCell::new(None) };
}

/// What [`set_server_key`] takes: a [`ServerKey`], the `Result` of making one (as
/// [`crate::CompressedServerKey::try_decompress_to_gpu`] returns it) or a
/// [`crate::CudaServerKey`] (as [`crate::CompressedServerKey::decompress_to_gpu`]
/// returns it), so that code written for TFHE-rs compiles as it is. An `Err` set as the thread's key is returned by every operation on the
/// thread (the `try_` forms return it; operators panic with its message) until
/// another key is set: the failure is reported where the key is first used, never
/// turned into a panic where it was made.
pub trait IntoServerKey {
    /// The key, or why there is none.
    fn into_server_key(self) -> Result<ServerKey>;
}

impl IntoServerKey for ServerKey {
    fn into_server_key(self) -> Result<ServerKey> {
        Ok(self)
    }
}

impl IntoServerKey for CudaServerKey {
    fn into_server_key(self) -> Result<ServerKey> {
        self.into_result()
    }
}

impl IntoServerKey for Result<ServerKey> {
    fn into_server_key(self) -> Result<ServerKey> {
        self
    }
}

/// Makes `key` the server key of the operations of the current thread (each thread
/// has its own; other threads are not affected). `key` is a [`ServerKey`] or the
/// `Result` of making one (see [`IntoServerKey`]).
///
/// With a GPU key, each operation borrows one of the key's CUDA streams on its GPU
/// for as long as it runs (the key has a fixed number per GPU, see
/// [`crate::scheduler`]), so threads run concurrently on a GPU however many there
/// are, and nothing stays bound to the thread.
///
/// ```
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
/// # let config = gpufhe::ConfigBuilder::default()
/// #     .with_insecure_custom_parameters(TEST_PARAMS)
/// #     .unwrap();
/// use gpufhe::prelude::*;
/// use gpufhe::{generate_keys, set_server_key, unset_server_key, FheUint8};
/// let (client_key, server_key) = generate_keys(config);
/// let a = FheUint8::encrypt(3u8, &client_key);
/// assert!(a.try_bitand(&a).is_err()); // no key on this thread yet
/// set_server_key(server_key);
/// assert!(a.try_bitand(&a).is_ok());
/// unset_server_key();
/// assert!(a.try_bitand(&a).is_err());
/// ```
///
/// A key that could not be made is reported by the operations:
///
/// ```
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
/// # let config = gpufhe::ConfigBuilder::default()
/// #     .with_insecure_custom_parameters(TEST_PARAMS)
/// #     .unwrap();
/// use gpufhe::prelude::*;
/// use gpufhe::{set_server_key, ClientKey, CompressedServerKey, FheUint8};
/// let client_key = ClientKey::generate(config);
/// let compressed = CompressedServerKey::new(&client_key);
/// let no_key = compressed.decompress_to_specific_gpu(Vec::new()); // no GPU chosen
/// let error = no_key.server_key().unwrap_err();
/// set_server_key(no_key);
/// let a = FheUint8::encrypt(3u8, &client_key);
/// assert_eq!(a.try_bitand(&a).unwrap_err(), error);
/// ```
pub fn set_server_key(key: impl IntoServerKey) {
    let previous = replace_server_key(Some(key.into_server_key()));
    // Dropped outside the borrow (a GPU key's drop waits for its device).
    drop(previous);
}

/// Removes the current thread's server key; operations on this thread then fail
/// with [`Error::NoServerKey`] until [`set_server_key`] is called again. The key's
/// workers (threads, CUDA streams) are released when its last clone is dropped.
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::{generate_keys, set_server_key, unset_server_key, Error, FheUint8};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
/// # let config = gpufhe::ConfigBuilder::default()
/// #     .with_insecure_custom_parameters(TEST_PARAMS)
/// #     .unwrap();
/// let (client_key, server_key) = generate_keys(config);
/// set_server_key(server_key);
/// let a = FheUint8::encrypt(3u8, &client_key);
/// assert!(a.try_add(&a).is_ok());
/// unset_server_key();
/// assert_eq!(a.try_add(&a).unwrap_err(), Error::NoServerKey);
/// ```
pub fn unset_server_key() {
    drop(replace_server_key(None));
}

/// Runs `f` with `key` as the current thread's server key, then puts the thread's
/// previous key (or none) back, also if `f` panics; returns what `f` returns.
///
/// ```
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
/// # let config = gpufhe::ConfigBuilder::default()
/// #     .with_insecure_custom_parameters(TEST_PARAMS)
/// #     .unwrap();
/// use gpufhe::prelude::*;
/// use gpufhe::{generate_keys, with_server_key_as_context, FheUint8};
/// let (client_key, server_key) = generate_keys(config);
/// let a = FheUint8::encrypt(20u8, &client_key);
/// let sum = with_server_key_as_context(server_key, || &a + 22u8);
/// let clear: u8 = sum.decrypt(&client_key);
/// assert_eq!(clear, 42);
/// assert!(a.try_add(&a).is_err()); // no key on this thread again
/// ```
pub fn with_server_key_as_context<T>(key: impl IntoServerKey, f: impl FnOnce() -> T) -> T {
    let _guard = KeyGuard::set(Some(key.into_server_key()));
    f()
}

/// Sets the thread's key and, when dropped (also while unwinding), puts back the
/// key it replaced.
pub(crate) struct KeyGuard(Option<ThreadKey>);

impl KeyGuard {
    /// Makes `key` the thread's key until the guard is dropped.
    pub(crate) fn set(key: ThreadKey) -> Self {
        Self(Some(replace_server_key(key)))
    }
}

impl Drop for KeyGuard {
    fn drop(&mut self) {
        if let Some(previous) = self.0.take() {
            // `try_with`: the thread's storage may be gone while the thread exits.
            let replaced =
                SERVER_KEY.try_with(|k| std::mem::replace(&mut *k.borrow_mut(), previous));
            drop(replaced);
        }
    }
}

/// Makes `key` the thread's key; returns the one it replaces.
fn replace_server_key(key: ThreadKey) -> ThreadKey {
    SERVER_KEY.with(|k| std::mem::replace(&mut *k.borrow_mut(), key))
}

/// The current thread's server key (a cheap clone): `Err(NoServerKey)` without one,
/// or the error of the key that could not be made.
pub(crate) fn current_server_key() -> Result<ServerKey> {
    SERVER_KEY.with(|k| match &*k.borrow() {
        Some(key) => key.clone(),
        None => Err(Error::NoServerKey),
    })
}

/// Removes the current thread's key if it computes on a GPU; returns it, to be
/// dropped outside the borrow.
fn take_gpu_server_key() -> ThreadKey {
    SERVER_KEY.with(|k| {
        let mut k = k.borrow_mut();
        let on_gpu = matches!(&*k, Some(Ok(key)) if !key.gpus().is_empty());
        if on_gpu {
            k.take()
        } else {
            None
        }
    })
}

/// Releases the calling thread's GPU state: its server key, if that key holds
/// GPUs, is unset (as [`crate::unset_server_key`] does). CUDA streams belong to the
/// key's pool, not to threads, so nothing else is held per thread; the key's streams
/// and device memory are freed when its last clone is dropped. A CPU key stays set,
/// and without a GPU this does nothing.
///
/// ```
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
/// # let config = gpufhe::ConfigBuilder::default()
/// #     .with_insecure_custom_parameters(TEST_PARAMS)
/// #     .unwrap();
/// use gpufhe::prelude::*;
/// use gpufhe::{clear_gpu_thread_locals, generate_keys, set_server_key, FheUint8};
/// let (client_key, server_key) = generate_keys(config);
/// set_server_key(server_key); // a CPU key
/// clear_gpu_thread_locals();
/// let x = FheUint8::encrypt(3u8, &client_key);
/// let y: u8 = (&x + &x).decrypt(&client_key); // the CPU key is still set
/// assert_eq!(y, 6);
/// ```
pub fn clear_gpu_thread_locals() {
    let key = take_gpu_server_key();
    // Dropped outside the borrow (a GPU key's drop waits for its device).
    drop(key);
}

/// The keyswitch + bootstrap evaluations of every server key of the process since it
/// started or since [`reset_pbs_count`], on every thread, CPU and GPUs (TFHE-rs's
/// `get_pbs_count`, which needs its `pbs-stats` feature; here it is always on). Other
/// threads' work counts too: for the count of one key, see [`ServerKey::pbs_count`]
/// and [`ServerKey::stats`].
///
/// ```
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
/// # let config = gpufhe::ConfigBuilder::default()
/// #     .with_insecure_custom_parameters(TEST_PARAMS)
/// #     .unwrap();
/// use gpufhe::prelude::*;
/// use gpufhe::{generate_keys, get_pbs_count, set_server_key, FheUint8};
/// let (client_key, server_key) = generate_keys(config);
/// set_server_key(server_key.clone());
/// let a = FheUint8::encrypt(3u8, &client_key);
/// let before = get_pbs_count();
/// let _ = &a * &a;
/// assert!(get_pbs_count() - before >= server_key.pbs_count());
/// ```
pub fn get_pbs_count() -> u64 {
    crate::shortint::pbs_count()
}

/// Sets the count of [`get_pbs_count`] back to zero.
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::{generate_keys, get_pbs_count, reset_pbs_count, set_server_key, FheUint8};
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
/// # let config = gpufhe::ConfigBuilder::default()
/// #     .with_insecure_custom_parameters(TEST_PARAMS)
/// #     .unwrap();
/// let (client_key, server_key) = generate_keys(config);
/// set_server_key(server_key);
/// let a = FheUint8::encrypt(3u8, &client_key);
/// let _ = &a * &a;
/// assert!(get_pbs_count() > 0);
/// reset_pbs_count(); // no other thread of this program computes
/// assert_eq!(get_pbs_count(), 0);
/// ```
pub fn reset_pbs_count() {
    crate::shortint::reset_pbs_count();
}
