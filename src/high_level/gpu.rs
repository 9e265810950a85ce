//! Where values live and what they would need on a GPU, under TFHE-rs's names:
//! their GPUs ([`FheUint::gpu_indexes`]), moving them to the thread's key's device
//! (`move_to_current_device`), and how much GPU memory an operation of [`FheUint`],
//! [`FheInt`] or [`FheBool`] needs before running it (the `try_get_*_size_on_gpu`
//! methods and the `*SizeOnGpu` traits of [`crate::prelude`]). All of them work
//! without a GPU.

use crate::backend::gpu_memory::big_lwe_bytes;
use crate::error::Result;
use crate::high_level::booleans::base::FheBool;
use crate::high_level::global_state::current_server_key;
use crate::high_level::integers::operands::{Operand, OperandKind, ShiftAmount, SignedOperand};
use crate::high_level::integers::unsigned::base::UnsignedView;
use crate::high_level::internals::expect_op;
use crate::high_level::internals::storage::Input;
use crate::high_level::lists::compressed::CompressedCiphertextList;
use crate::high_level::traits::gpu_size::*;
use crate::high_level::{FheInt, FheIntId, FheUint, FheUintId};
use crate::integer::{self, BinaryOp, BitOp, Circuit, CmpOp as ComparisonOp, Radix, Rhs, Wire};
use crate::scheduler::{Device, GpuIndex};
use std::borrow::Borrow;

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
fn size_on_gpu(
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

            fn binary_size(&self, op: BinaryOp, rhs: OperandKind<'_, <Self as UnsignedView>::Bits>) -> Result<u64> {
                self.unsigned_view().sized(rhs, |c, x, rhs| $binary(c, op, x, rhs))
            }

            fn comparison_size(&self, op: ComparisonOp, rhs: OperandKind<'_, <Self as UnsignedView>::Bits>) -> Result<u64> {
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

/// Implements a binary size trait for `$T` by `$size` (`binary_size` or
/// `comparison_size`) with operation `$Op::$variant` per method.
macro_rules! binary_impl {
    ($T:ident<$IdT:ident>, $Rhs:ty, $Trait:ident, $size:ident, $Op:ident, $($method:ident => $variant:ident),+) => {
        impl<'r, Id: $IdT, R: Into<$Rhs>> $Trait<R> for $T<Id> {
            $(
                #[track_caller]
                fn $method(&self, rhs: R) -> u64 {
                    expect_op(self.$size($Op::$variant, rhs.into().0), stringify!($method))
                }
            )+
        }
    };
}

/// The size traits of `$T` with operands `$Operand`, shift amounts `$Shift` and
/// the division circuit `$div_rem`.
macro_rules! size_traits {
    ($T:ident<$IdT:ident>, $Operand:ty, $Shift:ty, $div_rem:path) => {
        binary_impl!($T<$IdT>, $Operand, AddSizeOnGpu, binary_size, BinaryOp, get_add_size_on_gpu => Add);
        binary_impl!($T<$IdT>, $Operand, SubSizeOnGpu, binary_size, BinaryOp, get_sub_size_on_gpu => Sub);
        binary_impl!($T<$IdT>, $Operand, MulSizeOnGpu, binary_size, BinaryOp, get_mul_size_on_gpu => Mul);
        binary_impl!($T<$IdT>, $Operand, BitAndSizeOnGpu, binary_size, BinaryOp, get_bitand_size_on_gpu => BitAnd);
        binary_impl!($T<$IdT>, $Operand, BitOrSizeOnGpu, binary_size, BinaryOp, get_bitor_size_on_gpu => BitOr);
        binary_impl!($T<$IdT>, $Operand, BitXorSizeOnGpu, binary_size, BinaryOp, get_bitxor_size_on_gpu => BitXor);
        binary_impl!($T<$IdT>, $Shift, ShlSizeOnGpu, binary_size, BinaryOp, get_left_shift_size_on_gpu => Shl);
        binary_impl!($T<$IdT>, $Shift, ShrSizeOnGpu, binary_size, BinaryOp, get_right_shift_size_on_gpu => Shr);
        binary_impl!($T<$IdT>, $Shift, RotateLeftSizeOnGpu, binary_size, BinaryOp, get_rotate_left_size_on_gpu => RotateLeft);
        binary_impl!($T<$IdT>, $Shift, RotateRightSizeOnGpu, binary_size, BinaryOp, get_rotate_right_size_on_gpu => RotateRight);
        binary_impl!($T<$IdT>, $Operand, FheMinSizeOnGpu, binary_size, BinaryOp, get_min_size_on_gpu => Min);
        binary_impl!($T<$IdT>, $Operand, FheMaxSizeOnGpu, binary_size, BinaryOp, get_max_size_on_gpu => Max);
        binary_impl!($T<$IdT>, $Operand, FheOrdSizeOnGpu, comparison_size, ComparisonOp,
            get_gt_size_on_gpu => Gt, get_lt_size_on_gpu => Lt, get_ge_size_on_gpu => Ge, get_le_size_on_gpu => Le);
        binary_impl!($T<$IdT>, $Operand, FheEqSizeOnGpu, comparison_size, ComparisonOp,
            get_eq_size_on_gpu => Eq, get_ne_size_on_gpu => Ne);

        impl<Id: $IdT> SizeOnGpu for $T<Id> {
            /// Its blocks under the thread's server key's parameters (a trivial
            /// value takes as much once uploaded).
            #[track_caller]
            fn get_size_on_gpu(&self) -> u64 {
                let key = expect_op(current_server_key(), "get_size_on_gpu");
                let config = key.config();
                let blocks = config.block_count(<Self as UnsignedView>::Bits::BITS) as u64;
                blocks * big_lwe_bytes(config.parameters()) as u64
            }
        }

        impl<Id: $IdT> NegSizeOnGpu for $T<Id> {
            #[track_caller]
            fn get_neg_size_on_gpu(&self) -> u64 {
                let input = self.unsigned_view().input();
                expect_op(size_on_gpu(&[input], |c, w| Ok(vec![integer::neg(c, &w[0])?])), "get_neg_size_on_gpu")
            }
        }

        impl<Id: $IdT> BitNotSizeOnGpu for $T<Id> {
            #[track_caller]
            fn get_bitnot_size_on_gpu(&self) -> u64 {
                let input = self.unsigned_view().input();
                expect_op(size_on_gpu(&[input], |c, w| Ok(vec![integer::bitnot(c, &w[0])?])), "get_bitnot_size_on_gpu")
            }
        }

        size_traits!(@division $T<$IdT>, $div_rem, DivSizeOnGpu, get_div_size_on_gpu);
        size_traits!(@division $T<$IdT>, $div_rem, RemSizeOnGpu, get_rem_size_on_gpu);
        size_traits!(@division $T<$IdT>, $div_rem, DivRemSizeOnGpu, get_div_rem_size_on_gpu);
    };
    (@division $T:ident<$IdT:ident>, $div_rem:path, $Trait:ident, $method:ident) => {
        impl<Id: $IdT> $Trait<&$T<Id>> for $T<Id> {
            #[track_caller]
            fn $method(&self, rhs: &$T<Id>) -> u64 {
                let inputs = [self.unsigned_view().input(), rhs.unsigned_view().input()];
                let size = size_on_gpu(&inputs, |c, w| {
                    let (q, r) = $div_rem(c, &w[0], &w[1])?;
                    Ok(vec![q, r])
                });
                expect_op(size, stringify!($method))
            }
        }
    };
}

size_traits!(
    FheUint<FheUintId>,
    Operand<'r, Id>,
    ShiftAmount<'r, Id>,
    integer::div_rem
);
size_traits!(
    FheInt<FheIntId>,
    SignedOperand<'r, Id>,
    ShiftAmount<'r, Id::Unsigned>,
    integer::signed_div_rem
);

impl<Id: FheUintId> IfThenElseSizeOnGpu<FheUint<Id>> for FheBool {
    #[track_caller]
    fn get_if_then_else_size_on_gpu(&self, then: &FheUint<Id>, otherwise: &FheUint<Id>) -> u64 {
        expect_op(
            self.try_get_select_size_on_gpu(then, otherwise),
            "get_if_then_else_size_on_gpu",
        )
    }
}

impl<Id: FheIntId> IfThenElseSizeOnGpu<FheInt<Id>> for FheBool {
    #[track_caller]
    fn get_if_then_else_size_on_gpu(&self, then: &FheInt<Id>, otherwise: &FheInt<Id>) -> u64 {
        let (then, otherwise) = (then.unsigned_view(), otherwise.unsigned_view());
        expect_op(
            self.try_get_select_size_on_gpu(then, otherwise),
            "get_if_then_else_size_on_gpu",
        )
    }
}

/// The bytes of `self op rhs` on booleans: an encrypted right operand (one more
/// block in, one bootstrap), or a clear one (nothing computed on the GPU).
macro_rules! bool_size_impl {
    ($Trait:ident, $method:ident, $op:expr) => {
        impl<B: Borrow<FheBool>> $Trait<B> for FheBool {
            #[track_caller]
            fn $method(&self, rhs: B) -> u64 {
                let size = size_on_gpu(&[self.input(), rhs.borrow().input()], |c, w| {
                    Ok(vec![integer::bitwise(c, $op, &w[0], &w[1])?])
                });
                expect_op(size, stringify!($method))
            }
        }

        impl $Trait<bool> for FheBool {
            #[track_caller]
            fn $method(&self, _rhs: bool) -> u64 {
                let size = size_on_gpu(&[self.input()], |_, w| Ok(vec![w[0].clone()]));
                expect_op(size, stringify!($method))
            }
        }
    };
}

bool_size_impl!(BitAndSizeOnGpu, get_bitand_size_on_gpu, BitOp::And);
bool_size_impl!(BitOrSizeOnGpu, get_bitor_size_on_gpu, BitOp::Or);
bool_size_impl!(BitXorSizeOnGpu, get_bitxor_size_on_gpu, BitOp::Xor);
