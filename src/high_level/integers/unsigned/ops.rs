//! The operations of [`FheUint`]: each builds one circuit ([`FheUint::binary`],
//! [`FheUint::compare`], ...) on the thread's server key; the `try_` methods, the
//! std operators (`+ - * & | ^ << >> - !` and their `*Assign` forms), comparisons,
//! `min`/`max`, rotations and sums.

use super::base::{FheUint, FheUintId};
use crate::error::{check_eq, Result};
use crate::high_level::booleans::base::FheBool;
use crate::high_level::integers::operands::{Comparand, Operand, OperandKind, ShiftAmount};
use crate::high_level::integers::operators::{
    comparison_traits, iter_sum, rotations, std_operators, try_binary_methods,
};
use crate::high_level::internals::circuit::{run, single};
use crate::high_level::internals::storage::{Input, Storage};
use crate::high_level::traits::{
    FheEq, FheMax, FheMin, FheOrd, FheWait, RotateLeft, RotateLeftAssign, RotateRight,
    RotateRightAssign,
};
use crate::integer::{self, BinaryOp, Circuit, CmpOp, Radix, Rhs, Wire, U2048};
use std::ops::{
    Add, AddAssign, BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Mul, MulAssign,
    Neg, Not, Shl, ShlAssign, Shr, ShrAssign, Sub, SubAssign,
};

/// Where the operands of one operation sit among a circuit's inputs.
pub(crate) struct Slots<'a> {
    pub(crate) inputs: Vec<Input<'a>>,
}

impl<'a> Slots<'a> {
    pub(crate) fn new() -> Self {
        Self { inputs: Vec::new() }
    }

    /// Adds an encrypted operand; returns its index among the inputs.
    pub(crate) fn push(&mut self, input: Input<'a>) -> usize {
        self.inputs.push(input);
        self.inputs.len() - 1
    }

    /// Adds a right operand: its input index, or its clear value (a trivial operand
    /// is one, so the operation takes its cheaper clear-operand form).
    pub(crate) fn push_rhs<Id: FheUintId>(&mut self, rhs: &'a OperandKind<'_, Id>) -> SlotRhs {
        match rhs {
            OperandKind::Encrypted(x) => match &x.storage {
                Storage::Trivial(k) => SlotRhs::Clear(**k),
                Storage::Encrypted { .. } => SlotRhs::Input(self.push(x.input())),
            },
            OperandKind::Amount(storage, bits) => match storage.as_ref() {
                Storage::Trivial(k) => SlotRhs::Clear(**k),
                storage @ Storage::Encrypted { .. } => SlotRhs::Input(self.push(Input {
                    storage,
                    bits: *bits,
                })),
            },
            OperandKind::Clear(k) => SlotRhs::Clear(*k),
        }
    }
}

/// A right operand among a circuit's inputs.
#[derive(Clone, Copy)]
// The circuits' 2048-bit clear value, on the stack while a circuit is built.
#[allow(clippy::large_enum_variant)]
pub(crate) enum SlotRhs {
    Input(usize),
    Clear(U2048),
}

impl SlotRhs {
    pub(crate) fn wires(self, operands: &[Radix]) -> Rhs<'_> {
        match self {
            Self::Input(i) => Rhs::Wires(&operands[i]),
            Self::Clear(k) => Rhs::Clear(k),
        }
    }
}

impl<Id: FheUintId> FheUint<Id> {
    /// `self op rhs` as one circuit.
    pub(crate) fn binary(&self, op: BinaryOp, rhs: OperandKind<'_, Id>) -> Result<Self> {
        self.binary_with(rhs, |c, l, r| integer::binary(c, op, l, r))
    }

    /// `build(self, rhs)` as one circuit, `build` giving the blocks of the result.
    pub(crate) fn binary_with(
        &self,
        rhs: OperandKind<'_, Id>,
        build: impl FnOnce(&mut Circuit, &[Wire], Rhs) -> Result<Radix>,
    ) -> Result<Self> {
        let mut slots = Slots::new();
        let lhs = slots.push(self.input());
        let rhs = slots.push_rhs(&rhs);
        let out = run(&slots.inputs, |c, w| {
            Ok(vec![build(c, &w[lhs], rhs.wires(w))?])
        })?;
        Ok(Self::from_storage(single(out)?))
    }

    /// `self op rhs` as one circuit.
    pub(crate) fn compare(&self, op: CmpOp, rhs: OperandKind<'_, Id>) -> Result<FheBool> {
        self.compare_with(rhs, |c, l, r| integer::comparison(c, op, l, r))
    }

    /// `build(self, rhs)` as one circuit, `build` giving a boolean block.
    pub(crate) fn compare_with(
        &self,
        rhs: OperandKind<'_, Id>,
        build: impl FnOnce(&mut Circuit, &[Wire], Rhs) -> Result<Wire>,
    ) -> Result<FheBool> {
        let out = self.binary_with(rhs, |c, l, r| Ok(vec![build(c, l, r)?]))?;
        Ok(FheBool::from_storage(out.storage))
    }

    /// `build(self, rhs)` as one circuit with two outputs.
    pub(crate) fn two_outputs(
        &self,
        rhs: OperandKind<'_, Id>,
        build: impl FnOnce(&mut Circuit, &[Wire], Rhs) -> Result<(Radix, Radix)>,
    ) -> Result<(Storage, Storage)> {
        let mut slots = Slots::new();
        let lhs = slots.push(self.input());
        let rhs = slots.push_rhs(&rhs);
        let mut out = run(&slots.inputs, |c, w| {
            let (first, second) = build(c, &w[lhs], rhs.wires(w))?;
            Ok(vec![first, second])
        })?;
        check_eq("number of outputs of the circuit", 2, out.len())?;
        let second = out.remove(1);
        Ok((out.remove(0), second))
    }

    /// A one-operand circuit on `self`.
    pub(crate) fn unary(
        &self,
        build: impl FnOnce(&mut Circuit, &[Wire]) -> Result<Radix>,
    ) -> Result<Self> {
        let out = run(&[self.input()], |c, w| Ok(vec![build(c, &w[0])?]))?;
        Ok(Self::from_storage(single(out)?))
    }

    /// `self + rhs`, wrapping; `Err` if there is no server key on this thread or the
    /// operands belong to different keys. The operator `+` panics instead.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::FheUint8;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, _server_key) = gpufhe::generate_keys(config);
    /// let a = FheUint8::encrypt(1u8, &client_key);
    /// // No server key was set on this thread.
    /// let err = a.try_add(&a).unwrap_err();
    /// assert!(err.to_string().contains("set_server_key"));
    /// ```
    pub fn try_add<'r>(&self, rhs: impl Into<Operand<'r, Id>>) -> Result<Self> {
        self.binary(BinaryOp::Add, rhs.into().0)
    }

    try_binary_methods!(Operand<'r, Id>, ShiftAmount<'r, Id>);

    /// `self >> amount` (logical, the amount modulo the width); `Err` on failure.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::FheUint8;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, server_key) = gpufhe::generate_keys(config);
    /// gpufhe::set_server_key(server_key);
    /// let x = FheUint8::encrypt(0b1010_0000u8, &client_key);
    /// let y: u8 = x.try_shr(5u8).unwrap().decrypt(&client_key);
    /// assert_eq!(y, 0b101);
    /// ```
    pub fn try_shr<'r>(&self, amount: impl Into<ShiftAmount<'r, Id>>) -> Result<Self> {
        self.binary(BinaryOp::Shr, amount.into().0)
    }

    /// `-self`, wrapping; `Err` on failure.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::FheUint8;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, server_key) = gpufhe::generate_keys(config);
    /// gpufhe::set_server_key(server_key);
    /// let x = FheUint8::encrypt(1u8, &client_key);
    /// let y: u8 = x.try_neg().unwrap().decrypt(&client_key);
    /// assert_eq!(y, 255);
    /// ```
    pub fn try_neg(&self) -> Result<Self> {
        self.unary(integer::neg)
    }

    /// `!self` (every bit flipped, no bootstrap); `Err` on failure.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::FheUint8;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, server_key) = gpufhe::generate_keys(config);
    /// gpufhe::set_server_key(server_key);
    /// let x = FheUint8::encrypt(0b1111_0000u8, &client_key);
    /// let y: u8 = x.try_not().unwrap().decrypt(&client_key);
    /// assert_eq!(y, 0b0000_1111);
    /// ```
    pub fn try_not(&self) -> Result<Self> {
        self.unary(integer::bitnot)
    }

    /// The wrapping sum of `values` as one circuit; a trivial zero (which needs no
    /// key) for an empty slice, and for a single value a copy (no bootstrap), which
    /// needs the thread's server key and a value of its key like any operation.
    /// `Err` on failure.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::FheUint8;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, server_key) = gpufhe::generate_keys(config);
    /// gpufhe::set_server_key(server_key);
    /// let values: Vec<FheUint8> = [100u8, 100, 100].iter().map(|&v| FheUint8::encrypt(v, &client_key)).collect();
    /// let total: u8 = FheUint8::sum(&values).unwrap().decrypt(&client_key);
    /// assert_eq!(total, 44); // 300 mod 256
    /// assert_eq!(FheUint8::sum(&[]).unwrap().try_decrypt_trivial::<u8>().unwrap(), 0);
    /// ```
    pub fn sum(values: &[Self]) -> Result<Self> {
        Self::sum_of(&values.iter().collect::<Vec<_>>())
    }

    pub(crate) fn sum_of(values: &[&Self]) -> Result<Self> {
        match values {
            [] => Ok(Self::from_storage(Storage::trivial(U2048::ZERO))),
            [one] => {
                // Through a circuit, which checks the key and the value's tag.
                let out = run(&[one.input()], |_, w| Ok(vec![w[0].clone()]))?;
                Ok(Self::from_storage(single(out)?))
            }
            many => {
                let inputs: Vec<Input<'_>> = many.iter().map(|x| x.input()).collect();
                let out = run(&inputs, |c, w| {
                    let terms: Vec<&[Wire]> = w.iter().map(Vec::as_slice).collect();
                    Ok(vec![integer::sum(c, &terms)?])
                })?;
                Ok(Self::from_storage(single(out)?))
            }
        }
    }

    /// The width of the type in bits (TFHE-rs's name for `bits`).
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::FheUint8;
    /// assert_eq!(FheUint8::num_bits(), 8);
    /// ```
    pub const fn num_bits() -> usize {
        Self::bits() as usize
    }
}

std_operators!(FheUint<FheUintId>, Operand<'r, Id>, ShiftAmount<'r, Id>);
comparison_traits!(FheUint<FheUintId>, Comparand<'r, Id>);
rotations!(FheUint<FheUintId>, ShiftAmount<'r, Id>);
iter_sum!(FheUint<FheUintId>);

impl<Id: FheUintId> FheWait for FheUint<Id> {
    /// Returns at once: the value was computed when its operation returned.
    fn wait(&self) {}
}
