//! TFHE-rs's GPU size queries as traits of the prelude (`AddSizeOnGpu`,
//! `FheOrdSizeOnGpu`, ...): the device bytes an operation of [`FheUint`] or
//! [`FheInt`] (or a selection by a [`FheBool`]) would need on a GPU, asked before running it, with
//! the thread's server key (a CPU key is enough: the circuit is recorded, nothing
//! runs). Each method panics, as in TFHE-rs, when there is no server key on the
//! thread or the operands belong to another key; `FheUint::try_get_size_on_gpu`
//! and its siblings return the same numbers as `Result`s.
//!
//! ```
//! use gpufhe::prelude::*;
//! use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheBool, FheUint16};
//! let (client_key, server_key) = generate_keys(ConfigBuilder::default());
//! set_server_key(server_key);
//! let a = FheUint16::encrypt(7u16, &client_key);
//! let b = FheUint16::encrypt(9u16, &client_key);
//! // The value itself: 8 blocks of 2049 words.
//! assert_eq!(a.get_size_on_gpu(), 8 * 2049 * 8);
//! let operands = a.get_size_on_gpu() + b.get_size_on_gpu();
//! assert!(a.get_add_size_on_gpu(&b) > operands);
//! // One circuit gives the quotient and the remainder.
//! assert_eq!(a.get_div_rem_size_on_gpu(&b), a.get_div_size_on_gpu(&b));
//! let flag = FheBool::encrypt(true, &client_key);
//! assert!(flag.get_if_then_else_size_on_gpu(&a, &b) >= operands);
//! ```

use super::fhe_bool::FheBool;
use super::fhe_int::{FheInt, FheIntId, SignedOperand};
use super::fhe_uint::{FheUint, FheUintId, Operand, ShiftAmount, UnsignedView};
use super::global_state::current_server_key;
use super::gpu_helpers::size_on_gpu;
use super::operations::{BinaryOp, ComparisonOp};
use super::traits::expect_op;
use crate::backend::gpu_memory::big_lwe_bytes;
use crate::integer::{self, BitOp};
use std::borrow::Borrow;

/// Declares a size-query trait with one method taking a right operand.
macro_rules! binary_trait {
    ($(#[$doc:meta])* $Trait:ident, $($method:ident),+) => {
        $(#[$doc])*
        pub trait $Trait<Rhs = Self> {
            $(
                #[doc = concat!("The device bytes of `", stringify!($method), "`'s operation on a GPU.")]
                fn $method(&self, rhs: Rhs) -> u64;
            )+
        }
    };
}

binary_trait!(/// Bytes of `self + rhs`.
    AddSizeOnGpu, get_add_size_on_gpu);
binary_trait!(/// Bytes of `self - rhs`.
    SubSizeOnGpu, get_sub_size_on_gpu);
binary_trait!(/// Bytes of `self * rhs`.
    MulSizeOnGpu, get_mul_size_on_gpu);
binary_trait!(/// Bytes of `self & rhs`.
    BitAndSizeOnGpu, get_bitand_size_on_gpu);
binary_trait!(/// Bytes of `self | rhs`.
    BitOrSizeOnGpu, get_bitor_size_on_gpu);
binary_trait!(/// Bytes of `self ^ rhs`.
    BitXorSizeOnGpu, get_bitxor_size_on_gpu);
binary_trait!(/// Bytes of `self << rhs`.
    ShlSizeOnGpu, get_left_shift_size_on_gpu);
binary_trait!(/// Bytes of `self >> rhs`.
    ShrSizeOnGpu, get_right_shift_size_on_gpu);
binary_trait!(/// Bytes of `self.rotate_left(rhs)`.
    RotateLeftSizeOnGpu, get_rotate_left_size_on_gpu);
binary_trait!(/// Bytes of `self.rotate_right(rhs)`.
    RotateRightSizeOnGpu, get_rotate_right_size_on_gpu);
binary_trait!(/// Bytes of `self.min(rhs)`.
    FheMinSizeOnGpu, get_min_size_on_gpu);
binary_trait!(/// Bytes of `self.max(rhs)`.
    FheMaxSizeOnGpu, get_max_size_on_gpu);
binary_trait!(/// Bytes of the comparisons `gt`, `lt`, `ge`, `le`.
    FheOrdSizeOnGpu, get_gt_size_on_gpu, get_lt_size_on_gpu, get_ge_size_on_gpu, get_le_size_on_gpu);
binary_trait!(/// Bytes of `eq` and `ne`.
    FheEqSizeOnGpu, get_eq_size_on_gpu, get_ne_size_on_gpu);
binary_trait!(/// Bytes of `self / rhs` (the division computes the remainder too).
    DivSizeOnGpu, get_div_size_on_gpu);
binary_trait!(/// Bytes of `self % rhs`.
    RemSizeOnGpu, get_rem_size_on_gpu);
binary_trait!(/// Bytes of `self.div_rem(rhs)`.
    DivRemSizeOnGpu, get_div_rem_size_on_gpu);

/// Bytes of the value itself on a GPU (its blocks).
pub trait SizeOnGpu<Rhs = Self> {
    /// The device bytes of the value's blocks.
    fn get_size_on_gpu(&self) -> u64;
}

/// Bytes of `-self`.
pub trait NegSizeOnGpu<Rhs = Self> {
    /// The device bytes of the negation on a GPU.
    fn get_neg_size_on_gpu(&self) -> u64;
}

/// Bytes of `!self`.
pub trait BitNotSizeOnGpu {
    /// The device bytes of the bitwise not on a GPU.
    fn get_bitnot_size_on_gpu(&self) -> u64;
}

/// Bytes of a selection between two values by an encrypted condition.
pub trait IfThenElseSizeOnGpu<Ciphertext> {
    /// The device bytes of `self.if_then_else(then, otherwise)` on a GPU.
    fn get_if_then_else_size_on_gpu(&self, then: &Ciphertext, otherwise: &Ciphertext) -> u64;

    /// The same as [`IfThenElseSizeOnGpu::get_if_then_else_size_on_gpu`].
    fn get_select_size_on_gpu(&self, then: &Ciphertext, otherwise: &Ciphertext) -> u64 {
        self.get_if_then_else_size_on_gpu(then, otherwise)
    }

    /// The same as [`IfThenElseSizeOnGpu::get_if_then_else_size_on_gpu`].
    fn get_cmux_size_on_gpu(&self, then: &Ciphertext, otherwise: &Ciphertext) -> u64 {
        self.get_if_then_else_size_on_gpu(then, otherwise)
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
