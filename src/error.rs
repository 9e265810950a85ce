//! The crate's single error type.

/// Everything that can go wrong in gpufhe, with enough context to act on it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Two values that must agree do not (dimensions, sizes, counts).
    #[error("{what} mismatch: expected {expected}, got {got}")]
    DimensionMismatch {
        /// What was compared, e.g. "LWE dimension of the input ciphertext".
        what: &'static str,
        /// The value required by the key, parameters or the other operand.
        expected: usize,
        /// The value that was provided.
        got: usize,
    },
    /// A parameter or argument is outside its valid range.
    #[error("invalid parameter: {0}")]
    InvalidParameter(String),
    /// An operation would exceed the plaintext space or the noise budget of a block.
    #[error("{0}")]
    CapacityExceeded(String),
    /// No CUDA driver could be loaded, or no CUDA device is visible.
    #[error("no CUDA device available: {0}")]
    NoCudaDevice(String),
    /// The crate was built without GPU kernels: no CUDA compiler was found at build
    /// time, and the package held no kernel images made from its sources.
    #[error(
        "gpufhe was built without CUDA kernels: no CUDA compiler was found, nor kernel \
         images packaged from these sources; run scripts/install-nvcc.sh (or set NVCC / \
         CUDA_HOME) and rebuild"
    )]
    KernelsNotBuilt,
    /// An operation ran on a thread where no server key is set.
    #[error(
        "no server key is set on this thread: call gpufhe::set_server_key(server_key) on \
         this thread before computing on encrypted values"
    )]
    NoServerKey,
    /// Values or keys that belong to different client keys were combined: a ciphertext
    /// used with another key's server key, or decrypted with another client key.
    #[error(
        "key mismatch: {what} belongs to the key with tag {got:#018x}, but the key in use \
         has tag {expected:#018x}"
    )]
    KeyMismatch {
        /// What did not match, e.g. "the left operand".
        what: &'static str,
        /// The tag of the key in use.
        expected: u64,
        /// The tag carried by the value.
        got: u64,
    },
    /// Serialized data could not be written or read: a codec error, a wrong header
    /// (magic, format version, type name), or a size above the limit.
    #[error("serialization: {0}")]
    Serialization(String),
    /// The host cannot provide the memory an operation needs (checked before
    /// allocating, so the process does not abort).
    #[error("out of host memory: {0}")]
    OutOfMemory(String),
    /// A GPU has too little free memory for what was asked of it, even once its
    /// pending frees are done. Steps that run out split their work and retry before
    /// this reaches the caller.
    #[error("out of GPU memory: {0}")]
    OutOfDeviceMemory(String),
    /// A scheduler setting read from the environment (see
    /// [`SchedulerConfig`](crate::scheduler::SchedulerConfig)) is not valid.
    #[error("{variable}={value:?} is invalid: expected {expected}")]
    InvalidConfiguration {
        /// The environment variable, e.g. `GPUFHE_STREAMS_PER_GPU`.
        variable: String,
        /// Its value (non-UTF-8 bytes replaced by U+FFFD).
        value: String,
        /// What the variable accepts, and its default.
        expected: String,
    },
    /// A process of a cluster job ([`crate::cluster`], feature `cluster`) failed, or
    /// sent bytes that could not be read: every process of the job ends the phase
    /// with this error, which names the first failed process (and the others).
    #[cfg(feature = "cluster")]
    #[error("cluster: rank {rank} ({host}): {message}")]
    Cluster {
        /// The failed process's rank in the job.
        rank: usize,
        /// Its host (MPI's processor name).
        host: String,
        /// What failed there, and in which phase.
        message: String,
    },
    /// A GPU hit a fault that leaves its CUDA context unusable for the rest of the
    /// process (a *sticky* error: an illegal address, a failed launch, an
    /// uncorrectable ECC error, ...). The operation during which the driver reported
    /// it returns this, and so does, at once and without calling the driver, every
    /// later use of what was on that GPU: the device handles, GPU server keys and
    /// ciphertexts held in its memory at the time are lost (dropping them is safe;
    /// their memory is freed by the reset). Values on the CPU are unaffected.
    ///
    /// To compute on that GPU again, make a new GPU key the usual way (e.g.
    /// `CompressedServerKey::decompress_to_gpu`, or `CudaDevice::new` and
    /// `CudaBackend::new`): opening the device after the loss resets its primary
    /// context first. Do it once no other thread computes on the lost GPU.
    #[error("GPU {device} was lost (a sticky CUDA error): {message}")]
    DeviceLost {
        /// The GPU's ordinal.
        device: usize,
        /// What failed, with the driver's error, and what to do.
        message: String,
    },
    /// A zero-knowledge proof of a proven compact list does not hold (TFHE-rs's
    /// `ErrorKind::InvalidZkProof`): nothing of the list was expanded.
    #[error("the zero-knowledge proof of the list is invalid")]
    InvalidZkProof,
    /// An error described only by its message: what `Error::from("...")` makes
    /// (TFHE-rs's `ErrorKind::Message`).
    #[error("{0}")]
    Message(String),
    /// A CUDA driver call failed.
    #[error("CUDA error during {context}: {message}")]
    Cuda {
        /// The operation that was being performed.
        context: &'static str,
        /// The driver's description of the failure.
        message: String,
    },
}

/// TFHE-rs's name of what [`Error::kind`] returns: here the error itself, whose
/// variants say what went wrong.
pub type ErrorKind = Error;

impl Error {
    /// What went wrong (as TFHE-rs's `Error::kind`): the error itself, this crate's
    /// errors being an enum of kinds.
    ///
    /// ```
    /// use gpufhe::{Error, ErrorKind};
    /// let e = Error::from("custom message");
    /// assert!(matches!(e.kind(), ErrorKind::Message(m) if m == "custom message"));
    /// ```
    pub fn kind(&self) -> &ErrorKind {
        self
    }
}

impl From<std::convert::Infallible> for Error {
    /// Never called: the error of conversions that cannot fail (so that functions
    /// taking `impl TryInto<T>` accept a `T` itself, as TFHE-rs's do).
    fn from(never: std::convert::Infallible) -> Self {
        match never {}
    }
}

impl From<&str> for Error {
    /// An [`Error::Message`] of `message`.
    fn from(message: &str) -> Self {
        Error::Message(message.to_owned())
    }
}

impl From<String> for Error {
    /// An [`Error::Message`] of `message`.
    fn from(message: String) -> Self {
        Error::Message(message)
    }
}

/// Shorthand for `std::result::Result<T, gpufhe::Error>`.
pub type Result<T> = std::result::Result<T, Error>;

/// Returns `Err(DimensionMismatch)` unless `expected == got`.
pub(crate) fn check_eq(what: &'static str, expected: usize, got: usize) -> Result<()> {
    if expected == got {
        Ok(())
    } else {
        Err(Error::DimensionMismatch {
            what,
            expected,
            got,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_convert_to_errors_that_display_them() {
        let from_str = Error::from("boom");
        let from_string: Error = String::from("boom").into();
        assert_eq!(from_str, from_string);
        assert_eq!(from_str.to_string(), "boom");
        assert!(matches!(from_str.kind(), ErrorKind::Message(m) if m == "boom"));
        let other = Error::NoServerKey;
        assert_eq!(other.kind(), &Error::NoServerKey);
    }
}

/// Why a bit range given to [`crate::prelude::BitSlice::bitslice`] is invalid (TFHE-rs's
/// `tfhe::error::InvalidRangeError`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum InvalidRangeError {
    /// The end of the range is beyond the width of the integer.
    #[error("the upper bound of the range is greater than the size of the integer")]
    SliceTooBig,
    /// The end of the range is before its start.
    #[error("the upper bound is smaller than the lower bound")]
    WrongOrder,
}

impl From<InvalidRangeError> for Error {
    fn from(value: InvalidRangeError) -> Self {
        Self::InvalidParameter(value.to_string())
    }
}
