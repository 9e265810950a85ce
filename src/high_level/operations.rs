//! What every operation on [`FheUint`] builds, once: the circuit of one operation
//! ([`BinaryOp`], comparisons, ...), used alone by the `try_` methods and operators,
//! or many times in one circuit by the batch functions.

use super::batch::BatchOutput;
use super::bit_ops::Flag;
use super::fhe_bool::FheBool;
use super::fhe_uint::{FheUint, FheUintId, Operand, OperandKind, ShiftAmount, UnsignedClear};
use super::global_state::current_server_key;
use super::storage::{Input, Storage};
use crate::error::{check_eq, Result};
use crate::integer::{self, Circuit, CmpOp, Radix, Rhs, Wire, U256};

pub use crate::integer::BinaryOp;
pub use crate::integer::CmpOp as ComparisonOp;

/// The `try_` forms of `- * & | ^ <<`, whose circuits are the same on unsigned and
/// two's complement values, for a type with a `binary(op, operand)` method: right
/// operands `$Operand`, shift amounts `$Shift`.
macro_rules! try_binary_methods {
    ($Operand:ty, $Shift:ty) => {
        /// `self - rhs`, wrapping; `Err` on failure (see `try_add`).
        pub fn try_sub<'r>(&self, rhs: impl Into<$Operand>) -> Result<Self> {
            self.binary(BinaryOp::Sub, rhs.into().0)
        }

        /// `self * rhs`, wrapping; `Err` on failure.
        pub fn try_mul<'r>(&self, rhs: impl Into<$Operand>) -> Result<Self> {
            self.binary(BinaryOp::Mul, rhs.into().0)
        }

        /// `self & rhs`; `Err` on failure.
        pub fn try_bitand<'r>(&self, rhs: impl Into<$Operand>) -> Result<Self> {
            self.binary(BinaryOp::BitAnd, rhs.into().0)
        }

        /// `self | rhs`; `Err` on failure.
        pub fn try_bitor<'r>(&self, rhs: impl Into<$Operand>) -> Result<Self> {
            self.binary(BinaryOp::BitOr, rhs.into().0)
        }

        /// `self ^ rhs`; `Err` on failure.
        pub fn try_bitxor<'r>(&self, rhs: impl Into<$Operand>) -> Result<Self> {
            self.binary(BinaryOp::BitXor, rhs.into().0)
        }

        /// `self << amount` (the amount modulo the width); `Err` on failure.
        pub fn try_shl<'r>(&self, amount: impl Into<$Shift>) -> Result<Self> {
            self.binary(BinaryOp::Shl, amount.into().0)
        }
    };
}
pub(crate) use try_binary_methods;

/// Where the operands of one operation sit among a circuit's inputs.
struct Slots<'a> {
    inputs: Vec<Input<'a>>,
}

impl<'a> Slots<'a> {
    fn new() -> Self {
        Self { inputs: Vec::new() }
    }

    /// Adds an encrypted operand; returns its index among the inputs.
    fn push(&mut self, input: Input<'a>) -> usize {
        self.inputs.push(input);
        self.inputs.len() - 1
    }

    /// Adds a right operand: its input index, or its clear value (a trivial operand
    /// is one, so the operation takes its cheaper clear-operand form).
    fn push_rhs<Id: FheUintId>(&mut self, rhs: &'a OperandKind<'_, Id>) -> SlotRhs {
        match rhs {
            OperandKind::Encrypted(x) => match x.storage {
                Storage::Trivial(k) => SlotRhs::Clear(k),
                Storage::Encrypted { .. } => SlotRhs::Input(self.push(x.input())),
            },
            OperandKind::Amount(storage, bits) => match storage.as_ref() {
                Storage::Trivial(k) => SlotRhs::Clear(*k),
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
enum SlotRhs {
    Input(usize),
    Clear(crate::integer::U256),
}

impl SlotRhs {
    fn wires(self, operands: &[Radix]) -> Rhs<'_> {
        match self {
            Self::Input(i) => Rhs::Wires(&operands[i]),
            Self::Clear(k) => Rhs::Clear(k),
        }
    }
}

/// Runs a circuit on the current thread's server key.
pub(crate) fn run(
    inputs: &[Input<'_>],
    build: impl FnOnce(&mut Circuit, &[Radix]) -> Result<Vec<Radix>>,
) -> Result<Vec<Storage>> {
    current_server_key()?.execute(inputs, build)
}

/// The only output of a circuit.
pub(crate) fn single(mut outputs: Vec<Storage>) -> Result<Storage> {
    check_eq("number of outputs of the circuit", 1, outputs.len())?;
    Ok(outputs.remove(0))
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

    /// `self op rhs` for `op` among `+ - *`, with its overflow `flag` (or its
    /// negation), as one circuit. `Err` for another `op`.
    pub(crate) fn overflowing(
        &self,
        op: BinaryOp,
        rhs: OperandKind<'_, Id>,
        flag: Flag,
    ) -> Result<(Self, FheBool)> {
        self.overflowing_with(rhs, flag, |c, l, r| integer::overflowing(c, op, l, r))
    }

    /// `build(self, rhs)`, a value and its overflow flag, with the `flag` asked for
    /// (the overflow or its negation), as one circuit.
    pub(crate) fn overflowing_with(
        &self,
        rhs: OperandKind<'_, Id>,
        flag: Flag,
        build: impl FnOnce(&mut Circuit, &[Wire], Rhs) -> Result<(Radix, Wire)>,
    ) -> Result<(Self, FheBool)> {
        let (value, overflow) = self.two_outputs(rhs, |c, l, r| {
            let (value, overflow) = build(c, l, r)?;
            let overflow = integer::to_boolean(c, overflow)?;
            let flag = match flag {
                Flag::Overflow => overflow,
                Flag::Valid => c.linear(&[(overflow, -1)], 1)?,
            };
            Ok((value, vec![flag]))
        })?;
        Ok((Self::from_storage(value), FheBool::from_storage(overflow)))
    }

    /// `(self / rhs, self % rhs)` as one circuit ([`integer::div_rem`] or
    /// [`integer::scalar_div_rem`]; a clear zero is an `Err`).
    pub(crate) fn div_rem_parts(&self, rhs: OperandKind<'_, Id>) -> Result<(Self, Self)> {
        self.div_rem_with(rhs, |c, n, d| match d {
            Rhs::Wires(d) => integer::div_rem(c, n, d),
            Rhs::Clear(d) => integer::scalar_div_rem(c, n, d),
        })
    }

    /// The quotient and remainder `build(self, rhs)` gives, as one circuit.
    pub(crate) fn div_rem_with(
        &self,
        rhs: OperandKind<'_, Id>,
        build: impl FnOnce(&mut Circuit, &[Wire], Rhs) -> Result<(Radix, Radix)>,
    ) -> Result<(Self, Self)> {
        let (q, r) = self.two_outputs(rhs, build)?;
        Ok((Self::from_storage(q), Self::from_storage(r)))
    }

    /// `build(self, rhs)` as one circuit with two outputs.
    fn two_outputs(
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
    /// use gpufhe::{generate_keys, ConfigBuilder, FheUint8};
    /// let (client_key, _server_key) = generate_keys(ConfigBuilder::default());
    /// let a = FheUint8::encrypt(1u8, &client_key);
    /// // No server key was set on this thread.
    /// let err = a.try_add(&a).unwrap_err();
    /// assert!(err.to_string().contains("set_server_key"));
    /// ```
    pub fn try_add<'r>(&self, rhs: impl Into<Operand<'r, Id>>) -> Result<Self> {
        self.binary(BinaryOp::Add, rhs.into().0)
    }

    try_binary_methods!(Operand<'r, Id>, ShiftAmount<'r, Id>);

    /// `clear - self`, wrapping; `Err` on failure. The operator form is
    /// `clear - &x`.
    pub fn try_sub_from(&self, clear: Id::Clear) -> Result<Self> {
        let clear = clear.to_u256();
        self.unary(|c, x| integer::clear_sub(c, clear, x))
    }

    /// `self >> amount` (logical, the amount modulo the width); `Err` on failure.
    pub fn try_shr<'r>(&self, amount: impl Into<ShiftAmount<'r, Id>>) -> Result<Self> {
        self.binary(BinaryOp::Shr, amount.into().0)
    }

    /// `-self`, wrapping; `Err` on failure.
    pub fn try_neg(&self) -> Result<Self> {
        self.unary(integer::neg)
    }

    /// `!self` (every bit flipped, no bootstrap); `Err` on failure.
    pub fn try_not(&self) -> Result<Self> {
        self.unary(integer::bitnot)
    }

    /// The wrapping sum of `values` as one circuit; a trivial zero (which needs no
    /// key) for an empty slice, and for a single value a copy (no bootstrap), which
    /// needs the thread's server key and a value of its key like any operation.
    /// `Err` on failure.
    pub fn sum(values: &[Self]) -> Result<Self> {
        Self::sum_of(&values.iter().collect::<Vec<_>>())
    }

    pub(crate) fn sum_of(values: &[&Self]) -> Result<Self> {
        match values {
            [] => Ok(Self::from_storage(Storage::Trivial(U256::ZERO))),
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

    /// `lhs[i] op rhs[i]` for every `i`, as **one** circuit: the bootstraps of all
    /// the operations at the same depth run in one backend step, so a batch of `n`
    /// additions takes `n` times the bootstraps of one, in as many sequential layers
    /// as one. `rhs` holds `&FheUint<Id>` or clear values. `Err` if the lengths
    /// differ, or as the single operation.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, set_server_key, BinaryOp, ConfigBuilder, FheUint8};
    /// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
    /// set_server_key(server_key.clone());
    /// let lhs: Vec<FheUint8> = [1u8, 2, 3].iter().map(|&v| FheUint8::encrypt(v, &client_key)).collect();
    /// let out = FheUint8::batch(BinaryOp::BitXor, &lhs, [6u8, 6, 6]).unwrap();
    /// let clear: Vec<u8> = out.iter().map(|x| x.decrypt(&client_key)).collect();
    /// assert_eq!(clear, [7, 4, 5]);
    /// assert_eq!(server_key.stats().bootstrap_layers, 1); // all in one step
    /// ```
    pub fn batch<'r, R: Into<Operand<'r, Id>>>(
        op: BinaryOp,
        lhs: &'r [Self],
        rhs: impl IntoIterator<Item = R>,
    ) -> Result<Vec<Self>> {
        let rhs = rhs.into_iter().map(|r| r.into().0);
        Self::batch_with(lhs, rhs, |l, r| l.binary(op, r))
    }

    /// `lhs[i] + rhs[i]` (wrapping) for every `i`: [`FheUint::batch`] with
    /// [`BinaryOp::Add`], the one-line form of the multi-GPU guide's `par_iter` batch.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, set_server_key, ConfigBuilder, FheUint8};
    /// let (client_key, server_key) = generate_keys(ConfigBuilder::default());
    /// set_server_key(server_key);
    /// let lhs: Vec<FheUint8> = [1u8, 200].iter().map(|&v| FheUint8::encrypt(v, &client_key)).collect();
    /// let rhs: Vec<FheUint8> = [2u8, 100].iter().map(|&v| FheUint8::encrypt(v, &client_key)).collect();
    /// let sums = FheUint8::batch_add(&lhs, &rhs).unwrap();
    /// let clear: Vec<u8> = sums.iter().map(|x| x.decrypt(&client_key)).collect();
    /// assert_eq!(clear, [3, 44]);
    /// ```
    pub fn batch_add<'r, R: Into<Operand<'r, Id>>>(
        lhs: &'r [Self],
        rhs: impl IntoIterator<Item = R>,
    ) -> Result<Vec<Self>> {
        Self::batch(BinaryOp::Add, lhs, rhs)
    }

    /// `lhs[i] op rhs[i]` for every `i`, as one circuit (see [`FheUint::batch`]).
    pub fn batch_compare<'r, R: Into<Operand<'r, Id>>>(
        op: ComparisonOp,
        lhs: &'r [Self],
        rhs: impl IntoIterator<Item = R>,
    ) -> Result<Vec<FheBool>> {
        let rhs = rhs.into_iter().map(|r| r.into().0);
        Self::batch_with(lhs, rhs, |l, r| l.compare(op, r))
    }

    /// `op(lhs[i], rhs[i])` for every `i`, as a batch of the current thread's key
    /// ([`crate::ServerKey::run_batch`]).
    pub(crate) fn batch_with<'r, T: BatchOutput>(
        lhs: impl IntoIterator<Item = &'r Self>,
        rhs: impl IntoIterator<Item = OperandKind<'r, Id>>,
        op: impl Fn(&Self, OperandKind<'_, Id>) -> Result<T>,
    ) -> Result<Vec<T>> {
        let lhs: Vec<&Self> = lhs.into_iter().collect();
        let rhs: Vec<OperandKind<'r, Id>> = rhs.into_iter().collect();
        check_batch_lengths(lhs.len(), rhs.len())?;
        let pairs: Vec<(&Self, &OperandKind<'r, Id>)> = lhs.into_iter().zip(&rhs).collect();
        current_server_key()?
            .run_batch(&pairs, |&(l, r)| op(l, r.borrowed()))?
            .into_iter()
            .collect()
    }

    /// The wrapping sum of each group, all groups in one circuit (an empty group sums
    /// to zero). `Err` on failure.
    pub fn batch_sum(groups: &[&[Self]]) -> Result<Vec<Self>> {
        current_server_key()?
            .run_batch(groups, |group| {
                Self::sum_of(&group.iter().collect::<Vec<_>>())
            })?
            .into_iter()
            .collect()
    }
}

/// `Err` unless a batch has as many right operands as left ones.
fn check_batch_lengths(lhs: usize, rhs: usize) -> Result<()> {
    check_eq("number of right operands of the batch", lhs, rhs)
}
