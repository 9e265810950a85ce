//! The operations of [`FheBool`]: `& | ^ !` with an encrypted or clear right
//! operand, equality, and selection by an encrypted condition
//! ([`FheBool::select`], [`IfThenElse`]) between encrypted integers or booleans.

use super::base::FheBool;
use crate::error::Result;
use crate::high_level::global_state::current_server_key;
use crate::high_level::integers::operators::unary_operator;
use crate::high_level::internals::circuit::single;
use crate::high_level::internals::expect_op;
use crate::high_level::internals::storage::{Input, Storage};
use crate::high_level::traits::{FheEq, FheWait, IfThenElse, ScalarIfThenElse};
use crate::high_level::{FheInt, FheIntId, FheUint, FheUintId};
use crate::integer::{self, BitOp, Circuit, Radix, Wire};
use std::borrow::Cow;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// The right operand of a boolean operation: `&FheBool`, `FheBool` or a clear
/// `bool`.
pub struct BoolOperand<'a>(BoolKind<'a>);

enum BoolKind<'a> {
    Encrypted(Cow<'a, FheBool>),
    Clear(bool),
}

/// The right operand of a boolean operation inside a circuit.
#[derive(Clone, Copy)]
enum BoolRhs {
    Wire(Wire),
    Clear(bool),
}

impl<'a> From<&'a FheBool> for BoolOperand<'a> {
    fn from(value: &'a FheBool) -> Self {
        Self(BoolKind::Encrypted(Cow::Borrowed(value)))
    }
}

impl From<FheBool> for BoolOperand<'_> {
    fn from(value: FheBool) -> Self {
        Self(BoolKind::Encrypted(Cow::Owned(value)))
    }
}

impl From<bool> for BoolOperand<'_> {
    fn from(value: bool) -> Self {
        Self(BoolKind::Clear(value))
    }
}

/// `1 - w`: the boolean not, without bootstrap.
fn not_wire(c: &mut Circuit, w: Wire) -> Result<Wire> {
    c.linear(&[(w, -1)], 1)
}

impl FheBool {
    /// A circuit on `self` and `rhs` giving one boolean block.
    fn combine(
        &self,
        rhs: BoolOperand<'_>,
        build: impl FnOnce(&mut Circuit, Wire, BoolRhs) -> Result<Wire>,
    ) -> Result<Self> {
        let mut inputs = vec![self.input()];
        let clear = match &rhs.0 {
            BoolKind::Encrypted(b) => {
                inputs.push(b.input());
                None
            }
            BoolKind::Clear(v) => Some(*v),
        };
        let out = current_server_key()?.execute(&inputs, |c, w| {
            let rhs = match clear {
                Some(v) => BoolRhs::Clear(v),
                None => BoolRhs::Wire(w[1][0]),
            };
            let out = build(c, w[0][0], rhs)?;
            Ok(vec![vec![integer::to_boolean(c, out)?]])
        })?;
        Ok(Self::from_storage(single(out)?))
    }

    fn bitwise(&self, op: BitOp, rhs: BoolOperand<'_>) -> Result<Self> {
        self.combine(rhs, |c, a, rhs| match rhs {
            BoolRhs::Wire(b) => Ok(integer::bitwise(c, op, &[a], &[b])?[0]),
            // A clear operand fixes the result or leaves `a` (possibly negated).
            BoolRhs::Clear(k) => match (op, k) {
                (BitOp::And, false) => c.constant(0),
                (BitOp::Or, true) => c.constant(1),
                (BitOp::Xor, true) => not_wire(c, a),
                _ => Ok(a),
            },
        })
    }

    /// `self & rhs`; `Err` if there is no server key on this thread or the operands
    /// belong to different keys. The operator `&` panics instead.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::FheBool;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, server_key) = gpufhe::generate_keys(config);
    /// let yes = FheBool::encrypt(true, &client_key);
    /// assert!(yes.try_and(true).is_err()); // no server key yet
    /// gpufhe::set_server_key(server_key);
    /// let no = FheBool::encrypt(false, &client_key);
    /// let (both, with_clear) = (yes.try_and(&no).unwrap(), yes.try_and(true).unwrap());
    /// assert_eq!((both.decrypt(&client_key), with_clear.decrypt(&client_key)), (false, true));
    /// ```
    pub fn try_and<'r>(&self, rhs: impl Into<BoolOperand<'r>>) -> Result<Self> {
        self.bitwise(BitOp::And, rhs.into())
    }

    /// `self | rhs`; `Err` on failure.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::FheBool;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, server_key) = gpufhe::generate_keys(config);
    /// gpufhe::set_server_key(server_key);
    /// let (yes, no) = (FheBool::encrypt(true, &client_key), FheBool::encrypt(false, &client_key));
    /// assert!(yes.try_or(&no).unwrap().decrypt(&client_key));
    /// assert!(!no.try_or(false).unwrap().decrypt(&client_key));
    /// ```
    pub fn try_or<'r>(&self, rhs: impl Into<BoolOperand<'r>>) -> Result<Self> {
        self.bitwise(BitOp::Or, rhs.into())
    }

    /// `self ^ rhs`; `Err` on failure.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::FheBool;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, server_key) = gpufhe::generate_keys(config);
    /// gpufhe::set_server_key(server_key);
    /// let (yes, no) = (FheBool::encrypt(true, &client_key), FheBool::encrypt(false, &client_key));
    /// assert!(yes.try_xor(&no).unwrap().decrypt(&client_key));
    /// assert!(!yes.try_xor(true).unwrap().decrypt(&client_key));
    /// ```
    pub fn try_xor<'r>(&self, rhs: impl Into<BoolOperand<'r>>) -> Result<Self> {
        self.bitwise(BitOp::Xor, rhs.into())
    }

    /// `!self`, that is `1 - self` (no bootstrap); `Err` on failure.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::FheBool;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, server_key) = gpufhe::generate_keys(config);
    /// gpufhe::set_server_key(server_key);
    /// let no = FheBool::encrypt(false, &client_key);
    /// assert!(no.try_not().unwrap().decrypt(&client_key));
    /// ```
    pub fn try_not(&self) -> Result<Self> {
        self.combine(BoolOperand::from(false), |c, a, _| not_wire(c, a))
    }

    fn equality(&self, rhs: BoolOperand<'_>, want_equal: bool) -> Result<Self> {
        self.combine(rhs, |c, a, rhs| match rhs {
            BoolRhs::Wire(b) if want_equal => integer::eq(c, &[a], &[b]),
            BoolRhs::Wire(b) => integer::ne(c, &[a], &[b]),
            BoolRhs::Clear(k) if k == want_equal => Ok(a),
            BoolRhs::Clear(_) => not_wire(c, a),
        })
    }

    /// `if self { then } else { otherwise }` for encrypted integers or booleans,
    /// called as `cond.select(&a, &b)` (TFHE-rs's form) or
    /// `FheBool::select(&cond, &a, &b)`. [`FheBool::if_then_else`] and
    /// [`FheBool::cmux`] are the same operation under TFHE-rs's other names.
    ///
    /// # Panics
    ///
    /// If [`FheBool::try_select`] fails.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{FheBool, FheUint8};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, server_key) = gpufhe::generate_keys(config);
    /// gpufhe::set_server_key(server_key);
    /// let cond = FheBool::encrypt(false, &client_key);
    /// let a = FheUint8::encrypt(10u8, &client_key);
    /// let b = FheUint8::encrypt(20u8, &client_key);
    /// let picked: u8 = cond.select(&a, &b).decrypt(&client_key);
    /// assert_eq!(picked, 20);
    /// let same: u8 = FheBool::select(&cond, &a, &b).decrypt(&client_key);
    /// assert_eq!(same, 20);
    /// let (t, f) = (FheBool::encrypt(true, &client_key), FheBool::encrypt(false, &client_key));
    /// assert!(!cond.cmux(&t, &f).decrypt(&client_key));
    /// assert!(cond.if_then_else(&f, &t).decrypt(&client_key));
    /// ```
    #[track_caller]
    pub fn select<T>(&self, then: &T, otherwise: &T) -> T
    where
        FheBool: IfThenElse<T>,
    {
        expect_op(self.try_select(then, otherwise), "select")
    }

    /// `if self { then } else { otherwise }`; `Err` if there is no server key on
    /// this thread or the operands belong to different keys.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{FheBool, FheUint8};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, server_key) = gpufhe::generate_keys(config);
    /// let cond = FheBool::encrypt(true, &client_key);
    /// let (a, b) = (FheUint8::encrypt(1u8, &client_key), FheUint8::encrypt(2u8, &client_key));
    /// assert!(cond.try_select(&a, &b).is_err()); // no server key yet
    /// gpufhe::set_server_key(server_key);
    /// let picked: u8 = cond.try_select(&a, &b).unwrap().decrypt(&client_key);
    /// let same: u8 = cond.try_cmux(&a, &b).unwrap().decrypt(&client_key);
    /// let other: u8 = cond.try_if_then_else(&b, &a).unwrap().decrypt(&client_key);
    /// assert_eq!((picked, same, other), (1, 1, 2));
    /// ```
    pub fn try_select<T>(&self, then: &T, otherwise: &T) -> Result<T>
    where
        FheBool: IfThenElse<T>,
    {
        IfThenElse::try_if_then_else(self, then, otherwise)
    }

    /// [`FheBool::select`] under TFHE-rs's other name; works without importing the
    /// [`IfThenElse`] trait (example at [`FheBool::select`]).
    ///
    /// # Panics
    ///
    /// If [`FheBool::try_select`] fails.
    #[track_caller]
    pub fn if_then_else<T>(&self, then: &T, otherwise: &T) -> T
    where
        FheBool: IfThenElse<T>,
    {
        expect_op(self.try_select(then, otherwise), "if_then_else")
    }

    /// [`FheBool::try_select`] under the name of [`IfThenElse`] (example at
    /// [`FheBool::try_select`]).
    pub fn try_if_then_else<T>(&self, then: &T, otherwise: &T) -> Result<T>
    where
        FheBool: IfThenElse<T>,
    {
        self.try_select(then, otherwise)
    }

    /// [`FheBool::select`] under TFHE-rs's name for the "controlled mux" (example
    /// at [`FheBool::select`]).
    ///
    /// # Panics
    ///
    /// If [`FheBool::try_select`] fails.
    #[track_caller]
    pub fn cmux<T>(&self, then: &T, otherwise: &T) -> T
    where
        FheBool: IfThenElse<T>,
    {
        expect_op(self.try_select(then, otherwise), "cmux")
    }

    /// [`FheBool::try_select`] under the name of [`FheBool::cmux`] (example at
    /// [`FheBool::try_select`]).
    pub fn try_cmux<T>(&self, then: &T, otherwise: &T) -> Result<T>
    where
        FheBool: IfThenElse<T>,
    {
        self.try_select(then, otherwise)
    }

    /// The selection circuit, or a copy of the chosen value if the condition is
    /// trivial. `boolean` makes the output a boolean block.
    fn select_storage(
        &self,
        then: Input<'_>,
        otherwise: Input<'_>,
        boolean: bool,
    ) -> Result<Storage> {
        if let Storage::Trivial(v) = &self.storage {
            return Ok(if !v.is_zero() { then } else { otherwise }.storage.clone());
        }
        let out = current_server_key()?.execute(&[self.input(), then, otherwise], |c, w| {
            let mut out: Radix = integer::select(c, w[0][0], &w[1], &w[2])?;
            if boolean {
                out[0] = integer::to_boolean(c, out[0])?;
            }
            Ok(vec![out])
        })?;
        single(out)
    }
}

impl<Id: FheUintId> IfThenElse<FheUint<Id>> for FheBool {
    fn try_if_then_else(&self, then: &FheUint<Id>, otherwise: &FheUint<Id>) -> Result<FheUint<Id>> {
        self.select_storage(then.input(), otherwise.input(), false)
            .map(FheUint::from_storage)
    }
}

impl IfThenElse<FheBool> for FheBool {
    fn try_if_then_else(&self, then: &FheBool, otherwise: &FheBool) -> Result<FheBool> {
        self.select_storage(then.input(), otherwise.input(), true)
            .map(FheBool::from_storage)
    }
}

impl<'r, R: Into<BoolOperand<'r>>> FheEq<R> for FheBool {
    fn try_eq(&self, other: R) -> Result<FheBool> {
        self.equality(other.into(), true)
    }

    fn try_ne(&self, other: R) -> Result<FheBool> {
        self.equality(other.into(), false)
    }
}

impl<Id: FheIntId> IfThenElse<FheInt<Id>> for FheBool {
    fn try_if_then_else(&self, then: &FheInt<Id>, otherwise: &FheInt<Id>) -> Result<FheInt<Id>> {
        self.try_if_then_else(&then.inner, &otherwise.inner)
            .map(FheInt::from_inner)
    }
}

impl ScalarIfThenElse<&FheBool, &FheBool> for FheBool {
    type Output = FheBool;

    fn try_scalar_if_then_else(
        &self,
        value_true: &FheBool,
        value_false: &FheBool,
    ) -> Result<FheBool> {
        self.try_if_then_else(value_true, value_false)
    }
}

impl FheWait for FheBool {
    /// Returns at once: the value was computed when its operation returned.
    fn wait(&self) {}
}

impl FheBool {
    /// The width of the type in bits: 1.
    ///
    /// ```
    /// assert_eq!(gpufhe::FheBool::num_bits(), 1);
    /// ```
    pub const fn num_bits() -> usize {
        1
    }
}

unary_operator!(Not, not, try_not, FheBool);

/// `Op` and `OpAssign` for `FheBool` with a borrowed or owned `FheBool` or a `bool`,
/// and `bool op FheBool`.
macro_rules! bool_operator {
    ($Op:ident, $op:ident, $OpAssign:ident, $op_assign:ident, $try:ident) => {
        impl<'r, R: Into<BoolOperand<'r>>> $Op<R> for &FheBool {
            type Output = FheBool;
            #[track_caller]
            fn $op(self, rhs: R) -> FheBool {
                expect_op(self.$try(rhs), stringify!($op))
            }
        }

        impl<'r, R: Into<BoolOperand<'r>>> $Op<R> for FheBool {
            type Output = FheBool;
            #[track_caller]
            fn $op(self, rhs: R) -> FheBool {
                (&self).$op(rhs)
            }
        }

        impl<'r, R: Into<BoolOperand<'r>>> $OpAssign<R> for FheBool {
            #[track_caller]
            fn $op_assign(&mut self, rhs: R) {
                *self = (&*self).$op(rhs);
            }
        }

        impl $Op<&FheBool> for bool {
            type Output = FheBool;
            #[track_caller]
            fn $op(self, rhs: &FheBool) -> FheBool {
                rhs.$op(self)
            }
        }

        impl $Op<FheBool> for bool {
            type Output = FheBool;
            #[track_caller]
            fn $op(self, rhs: FheBool) -> FheBool {
                (&rhs).$op(self)
            }
        }
    };
}

bool_operator!(BitAnd, bitand, BitAndAssign, bitand_assign, try_and);
bool_operator!(BitOr, bitor, BitOrAssign, bitor_assign, try_or);
bool_operator!(BitXor, bitxor, BitXorAssign, bitxor_assign, try_xor);
