//! GPU memory queries as traits of the prelude (`AddSizeOnGpu`, `FheOrdSizeOnGpu`,
//! ..., with TFHE-rs's names): the device bytes an operation of [`FheUint`] or
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
