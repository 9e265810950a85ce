//! TFHE-rs's GPU helpers under their names: where a value lives
//! ([`FheUint::gpu_indexes`]), releasing a thread's GPU state
//! ([`clear_gpu_thread_locals`]) and asking how much GPU memory an operation of
//! [`FheUint`] or [`FheInt`] needs before running it (`get_*_size_on_gpu`). All of
//! them work without a GPU.

use super::compressed_list::CompressedCiphertextList;
use super::fhe_bool::FheBool;
use super::fhe_int::{FheInt, FheIntId, SignedOperand};
use super::fhe_uint::{FheUint, FheUintId, Operand, OperandKind, UnsignedView};
use super::global_state::{current_server_key, take_gpu_server_key};
use super::operations::{BinaryOp, ComparisonOp};
use super::storage::Input;
use crate::error::Result;
use crate::integer::{self, Circuit, Radix, Rhs, Wire};
use crate::scheduler::{Device, GpuIndex, GpuSelection};

/// Releases the calling thread's GPU state: its server key, if that key holds
/// GPUs, is unset (as [`crate::unset_server_key`] does). CUDA streams belong to the
/// key's pool, not to threads, so nothing else is held per thread; the key's streams
/// and device memory are freed when its last clone is dropped. A CPU key stays set,
/// and without a GPU this does nothing.
///
/// ```
/// use gpufhe::prelude::*;
/// use gpufhe::{clear_gpu_thread_locals, generate_keys, set_server_key, ConfigBuilder, FheUint8};
/// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
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

/// The GPUs of a value's device: none on the CPU, one on a GPU.
fn gpus_of(device: Device) -> &'static [GpuIndex] {
    match device {
        Device::Cpu => &[],
        // Ordinals past 1,024 do not occur (CUDA numbers its visible devices).
        Device::CudaGpu(gpu) => gpu.as_static_slice().unwrap_or(&[]),
    }
}

/// Where [`FheUint::move_to_current_device`] moves a value now on `device`: the
/// CPU for a CPU key, the value's GPU if the key computes on it, else the key's
/// first GPU; `None` when no key (or a key that could not be made) is set.
fn current_key_device(device: Device) -> Option<Device> {
    let key = current_server_key().ok()?;
    let gpus = key.gpus();
    Some(match (gpus.first(), device) {
        (None, _) => Device::Cpu,
        (Some(_), Device::CudaGpu(gpu)) if gpus.contains(&gpu) => device,
        (Some(&first), _) => Device::CudaGpu(first),
    })
}

/// `move_to_current_device` and its `try_` form for `$T`.
macro_rules! move_to_current_device {
    ($T:ty, [$($generics:tt)*]) => {
        impl<$($generics)*> $T {
            /// Moves the value to the device of the thread's server key (TFHE-rs's
            /// name): the CPU for a CPU key, one of the key's GPUs for a GPU key (it
            /// stays on its GPU if the key computes there). Nothing happens without
            /// a key on the thread, or if the move fails (the next operation moves
            /// it where it runs); [`Self::try_move_to_current_device`] reports why.
            ///
            /// ```
            /// use gpufhe::prelude::*;
            /// use gpufhe::{Device, FheUint8};
            /// let mut x = FheUint8::encrypt_trivial(7u8);
            /// x.move_to_current_device(); // no key on this thread: nothing to do
            /// assert_eq!(x.current_device(), Device::Cpu);
            /// ```
            pub fn move_to_current_device(&mut self) {
                // Best effort by design (TFHE-rs's signature returns nothing).
                let _ = self.try_move_to_current_device();
            }

            /// [`Self::move_to_current_device`]; `Err` if the move fails (the GPU
            /// lacks memory or is lost). `Ok` without a key on the thread.
            pub fn try_move_to_current_device(&mut self) -> Result<()> {
                match current_key_device(self.current_device()) {
                    Some(device) => self.move_to_device(device),
                    None => Ok(()),
                }
            }
        }
    };
}

impl<Id: FheIntId> FheInt<Id> {
    /// The GPUs its blocks live on (see [`FheUint::gpu_indexes`]).
    pub fn gpu_indexes(&self) -> &[GpuIndex] {
        gpus_of(self.current_device())
    }
}

move_to_current_device!(FheUint<Id>, [Id: FheUintId]);
move_to_current_device!(FheInt<Id>, [Id: FheIntId]);
move_to_current_device!(FheBool, []);

impl CompressedCiphertextList {
    /// Where the list is: on the CPU (gpufhe keeps compressed lists in host
    /// memory; [`CompressedCiphertextList::get`] puts values where they compute).
    pub fn current_device(&self) -> Device {
        Device::Cpu
    }

    /// Nothing to do: the list stays in host memory (see
    /// [`CompressedCiphertextList::current_device`]); TFHE-rs's name.
    pub fn move_to_current_device(&mut self) {}

    /// The GPUs the list is on: none (see
    /// [`CompressedCiphertextList::current_device`]).
    pub fn gpu_indexes(&self) -> &[GpuIndex] {
        &[]
    }
}

/// The device bytes the circuit `build` makes on `inputs` needs with the thread's
/// server key (see [`crate::scheduler::circuit_gpu_memory_bytes`]).
pub(super) fn size_on_gpu(
    inputs: &[Input<'_>],
    build: impl FnOnce(&mut Circuit, &[Radix]) -> Result<Vec<Radix>>,
) -> Result<u64> {
    let key = current_server_key()?;
    let inputs = key.circuit_inputs(inputs)?;
    key.scheduler().gpu_memory_bytes(&inputs, build)
}

impl<Id: FheUintId> FheUint<Id> {
    /// The GPUs its blocks live on: empty on the CPU (after encryption, for a
    /// trivial value), one after an operation with a GPU key (TFHE-rs's name; see
    /// [`FheUint::current_device`]).
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{ClientKey, ConfigBuilder, FheUint8};
    /// let client_key = ClientKey::generate(ConfigBuilder::default());
    /// let x = FheUint8::encrypt(7u8, &client_key);
    /// assert!(x.gpu_indexes().is_empty());
    /// ```
    pub fn gpu_indexes(&self) -> &[GpuIndex] {
        gpus_of(self.current_device())
    }

    /// A size query on `self` and an encrypted or clear right operand.
    fn sized(
        &self,
        rhs: OperandKind<'_, Id>,
        build: impl FnOnce(&mut Circuit, &[Wire], Rhs) -> Result<Radix>,
    ) -> Result<u64> {
        match &rhs {
            OperandKind::Encrypted(r) => size_on_gpu(&[self.input(), r.input()], |c, w| {
                Ok(vec![build(c, &w[0], Rhs::Wires(&w[1]))?])
            }),
            OperandKind::Amount(storage, bits) => {
                let amount = Input {
                    storage,
                    bits: *bits,
                };
                size_on_gpu(&[self.input(), amount], |c, w| {
                    Ok(vec![build(c, &w[0], Rhs::Wires(&w[1]))?])
                })
            }
            OperandKind::Clear(k) => size_on_gpu(&[self.input()], |c, w| {
                Ok(vec![build(c, &w[0], Rhs::Clear(*k))?])
            }),
        }
    }
}

/// The size queries of `$T` (`try_get_size_on_gpu`, `try_get_comparison_size_on_gpu`
/// and the sizes of binary and comparison operations the traits of
/// `super::gpu_size_traits` use), on its [`UnsignedView`] with the circuits
/// `$binary` and `$comparison` and right operands `$Operand`; the example comes
/// with the invocation.
macro_rules! size_queries {
    (
        $T:ident<$IdT:ident>, $Operand:ty, $binary:path, $comparison:path,
        [$(#[$example:meta])*] $(,)?
    ) => {
        impl<Id: $IdT> $T<Id> {
            /// The device bytes `self op rhs` needs on a GPU (inputs, every
            /// intermediate block and the largest step's working memory; the key itself
            /// not counted), for the circuit the thread's server key would build on its
            /// first GPU (on a modelled H100 for a key without GPUs). Nothing runs; no
            /// GPU is needed. `Err` if there is no server key on this thread or the
            /// operands belong to another key. The `get_*_size_on_gpu` methods are its
            /// panicking forms (traits of the prelude, as in TFHE-rs).
            ///
            $(#[$example])*
            pub fn try_get_size_on_gpu<'r>(&self, op: BinaryOp, rhs: impl Into<$Operand>) -> Result<u64> {
                self.binary_size(op, rhs.into().0)
            }

            #[doc = concat!("The device bytes `self op rhs` needs on a GPU (see [`", stringify!($T), "::try_get_size_on_gpu`]);")]
            /// `Err` on failure.
            pub fn try_get_comparison_size_on_gpu<'r>(&self, op: ComparisonOp, rhs: impl Into<$Operand>) -> Result<u64> {
                self.comparison_size(op, rhs.into().0)
            }

            pub(super) fn binary_size(&self, op: BinaryOp, rhs: OperandKind<'_, <Self as UnsignedView>::Bits>) -> Result<u64> {
                self.unsigned_view().sized(rhs, |c, x, rhs| $binary(c, op, x, rhs))
            }

            pub(super) fn comparison_size(&self, op: ComparisonOp, rhs: OperandKind<'_, <Self as UnsignedView>::Bits>) -> Result<u64> {
                self.unsigned_view().sized(rhs, |c, x, rhs| Ok(vec![$comparison(c, op, x, rhs)?]))
            }

        }
    };
}

size_queries! {
    FheUint<FheUintId>, Operand<'r, Id>, integer::binary, integer::comparison,
    [
        /// ```
        /// use gpufhe::prelude::*;
        /// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheUint64};
        /// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
        /// set_server_key(server_key); // a CPU key is enough to ask
        /// let a = FheUint64::encrypt(7u64, &client_key);
        /// let b = FheUint64::encrypt(9u64, &client_key);
        /// let add = a.get_add_size_on_gpu(&b);
        /// let mul = a.get_mul_size_on_gpu(&b);
        /// // At least both operands and the sum: 96 blocks of 2049 words.
        /// assert!(add >= 96 * 2049 * 8);
        /// assert!(mul > add);
        /// assert!(a.get_add_size_on_gpu(5u64) < add); // a clear operand is not uploaded
        /// ```
    ],
}

size_queries! {
    FheInt<FheIntId>, SignedOperand<'r, Id>,
    integer::signed_binary, integer::signed_comparison,
    [
        /// The signed circuits' sizes (the order, `min`/`max` and `>>` are signed):
        ///
        /// ```
        /// use gpufhe::prelude::*;
        /// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheInt64};
        /// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
        /// set_server_key(server_key); // a CPU key is enough to ask
        /// let a = FheInt64::encrypt(-7i64, &client_key);
        /// let b = FheInt64::encrypt(9i64, &client_key);
        /// let add = a.get_add_size_on_gpu(&b);
        /// assert!(add >= 96 * 2049 * 8);
        /// assert!(a.get_lt_size_on_gpu(&b) > 0);
        /// assert!(a.get_right_shift_size_on_gpu(3u32) < a.get_right_shift_size_on_gpu(&b));
        /// ```
    ],
}

impl FheBool {
    /// The GPUs its block lives on (see [`FheUint::gpu_indexes`]).
    pub fn gpu_indexes(&self) -> &[GpuIndex] {
        gpus_of(self.current_device())
    }

    /// The device bytes `self.select(then, otherwise)` needs on a GPU (see
    /// [`FheUint::try_get_size_on_gpu`]); `Err` on failure.
    pub fn try_get_select_size_on_gpu<Id: FheUintId>(
        &self,
        then: &FheUint<Id>,
        otherwise: &FheUint<Id>,
    ) -> Result<u64> {
        size_on_gpu(&[self.input(), then.input(), otherwise.input()], |c, w| {
            Ok(vec![integer::select(c, w[0][0], &w[1], &w[2])?])
        })
    }
}

/// A list of GPUs to decompress a server key to (TFHE-rs's name), for
/// [`crate::CompressedServerKey::decompress_to_specific_gpu`].
///
/// ```
/// use gpufhe::{CustomMultiGpuIndexes, GpuIndex, GpuSelection};
/// let chosen = CustomMultiGpuIndexes::new(vec![GpuIndex::new(0), GpuIndex::new(1)]);
/// assert_eq!(chosen.gpu_indexes().len(), 2);
/// let selection = GpuSelection::from(chosen);
/// assert_eq!(selection.gpus(), &[GpuIndex::new(0), GpuIndex::new(1)]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CustomMultiGpuIndexes(Vec<GpuIndex>);

impl CustomMultiGpuIndexes {
    /// The GPUs `indexes`, in this order (checked when a key is decompressed to them).
    pub fn new(indexes: Vec<GpuIndex>) -> Self {
        Self(indexes)
    }

    /// The GPUs.
    pub fn gpu_indexes(&self) -> &[GpuIndex] {
        &self.0
    }
}

impl From<Vec<GpuIndex>> for CustomMultiGpuIndexes {
    fn from(indexes: Vec<GpuIndex>) -> Self {
        Self(indexes)
    }
}

impl From<CustomMultiGpuIndexes> for GpuSelection {
    fn from(indexes: CustomMultiGpuIndexes) -> Self {
        indexes.0.into()
    }
}

/// Which GPUs a server key computes on (TFHE-rs's name): one, every visible GPU, or
/// a list. [`crate::CompressedServerKey::decompress_to_specific_gpu`] takes it.
///
/// ```
/// use gpufhe::{CudaGpuChoice, GpuIndex, GpuSelection};
/// let one = GpuSelection::from(CudaGpuChoice::from(GpuIndex::new(3)));
/// assert_eq!(one.gpus(), &[GpuIndex::new(3)]);
/// // Every visible GPU: none on a machine without one.
/// let all = GpuSelection::from(CudaGpuChoice::Multi);
/// assert_eq!(all.gpus().len() as u32, gpufhe::get_number_of_gpus());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum CudaGpuChoice {
    /// One GPU.
    Single(GpuIndex),
    /// Every visible GPU (counted when the choice becomes a [`GpuSelection`]).
    #[default]
    Multi,
    /// These GPUs.
    Custom(CustomMultiGpuIndexes),
}

impl From<GpuIndex> for CudaGpuChoice {
    fn from(gpu: GpuIndex) -> Self {
        Self::Single(gpu)
    }
}

impl From<CustomMultiGpuIndexes> for CudaGpuChoice {
    fn from(indexes: CustomMultiGpuIndexes) -> Self {
        Self::Custom(indexes)
    }
}

impl From<CudaGpuChoice> for GpuSelection {
    fn from(choice: CudaGpuChoice) -> Self {
        match choice {
            CudaGpuChoice::Single(gpu) => gpu.into(),
            CudaGpuChoice::Multi => (0..crate::scheduler::get_number_of_gpus())
                .map(GpuIndex::new)
                .collect::<Vec<_>>()
                .into(),
            CudaGpuChoice::Custom(indexes) => indexes.into(),
        }
    }
}
