//! What every operation on [`FheUint`] builds, once: the circuit of one operation
//! ([`BinaryOp`], comparisons, ...), used alone by the `try_` methods and operators,
//! or many times in one circuit by the batch functions.

use super::fhe_bool::FheBool;
use super::fhe_uint::{FheUint, FheUintId, Operand, OperandKind, ShiftAmount, UnsignedClear};
use super::keys::current_server_key;
use super::storage::{Input, Storage};
use crate::error::{check_eq, Result};
use crate::integer::{self, Circuit, CmpOp, Radix, Rhs, Wire};
use std::ops::Range;

pub use crate::integer::BinaryOp;
pub use crate::integer::CmpOp as ComparisonOp;

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
            OperandKind::Clear(k) => SlotRhs::Clear(*k),
        }
    }
}

/// A right operand among a circuit's inputs.
#[derive(Clone, Copy)]
enum SlotRhs {
    Input(usize),
    Clear(u128),
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

/// Runs `count` independent operations with the current thread's server key as a
/// batch (see [`crate::scheduler`]): `circuit(range)` gives the inputs and the
/// builder of the operations in `range`, whose outputs are returned in order.
fn run_batch<'a, B>(
    count: usize,
    circuit: impl Fn(Range<usize>) -> Result<(Vec<Input<'a>>, B)> + Sync,
) -> Result<Vec<Storage>>
where
    B: FnOnce(&mut Circuit, &[Radix]) -> Result<Vec<Radix>>,
{
    current_server_key()?.execute_batch(count, circuit, None)
}

/// The only output of a circuit.
pub(crate) fn single(mut outputs: Vec<Storage>) -> Result<Storage> {
    check_eq("number of outputs of the circuit", 1, outputs.len())?;
    Ok(outputs.remove(0))
}

impl<Id: FheUintId> FheUint<Id> {
    /// `self op rhs` as one circuit.
    pub(crate) fn binary(&self, op: BinaryOp, rhs: OperandKind<'_, Id>) -> Result<Self> {
        let mut slots = Slots::new();
        let lhs = slots.push(self.input());
        let rhs = slots.push_rhs(&rhs);
        let out = run(&slots.inputs, |c, w| {
            Ok(vec![integer::binary(c, op, &w[lhs], rhs.wires(w))?])
        })?;
        Ok(Self::from_storage(single(out)?))
    }

    /// `self op rhs` as one circuit.
    pub(crate) fn compare(&self, op: CmpOp, rhs: OperandKind<'_, Id>) -> Result<FheBool> {
        let mut slots = Slots::new();
        let lhs = slots.push(self.input());
        let rhs = slots.push_rhs(&rhs);
        let out = run(&slots.inputs, |c, w| {
            Ok(vec![vec![integer::comparison(
                c,
                op,
                &w[lhs],
                rhs.wires(w),
            )?]])
        })?;
        Ok(FheBool::from_storage(single(out)?))
    }

    /// `self +/- rhs` and its overflow flag, as one circuit.
    pub(crate) fn overflowing(
        &self,
        subtract: bool,
        rhs: OperandKind<'_, Id>,
    ) -> Result<(Self, FheBool)> {
        let mut slots = Slots::new();
        let lhs = slots.push(self.input());
        let rhs = slots.push_rhs(&rhs);
        let mut out = run(&slots.inputs, |c, w| {
            let x = &w[lhs];
            let (value, flag) = match (subtract, rhs.wires(w)) {
                (false, Rhs::Wires(r)) => integer::overflowing_add(c, x, r)?,
                (true, Rhs::Wires(r)) => integer::overflowing_sub(c, x, r)?,
                (false, Rhs::Clear(k)) => integer::overflowing_scalar_add(c, x, k)?,
                (true, Rhs::Clear(k)) => integer::overflowing_scalar_sub(c, x, k)?,
            };
            Ok(vec![value, vec![integer::to_boolean(c, flag)?]])
        })?;
        check_eq("number of outputs of the circuit", 2, out.len())?;
        let flag = FheBool::from_storage(out.remove(1));
        Ok((Self::from_storage(out.remove(0)), flag))
    }

    /// A one-operand circuit on `self`.
    fn unary(&self, build: impl FnOnce(&mut Circuit, &[Wire]) -> Result<Radix>) -> Result<Self> {
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

    /// `self - rhs`, wrapping; `Err` on failure (see [`FheUint::try_add`]).
    pub fn try_sub<'r>(&self, rhs: impl Into<Operand<'r, Id>>) -> Result<Self> {
        self.binary(BinaryOp::Sub, rhs.into().0)
    }

    /// `clear - self`, wrapping; `Err` on failure. The operator form is
    /// `clear - &x`.
    pub fn try_sub_from(&self, clear: Id::Clear) -> Result<Self> {
        let clear = clear.to_u128();
        self.unary(|c, x| integer::clear_sub(c, clear, x))
    }

    /// `self * rhs`, wrapping; `Err` on failure.
    pub fn try_mul<'r>(&self, rhs: impl Into<Operand<'r, Id>>) -> Result<Self> {
        self.binary(BinaryOp::Mul, rhs.into().0)
    }

    /// `self & rhs`; `Err` on failure.
    pub fn try_bitand<'r>(&self, rhs: impl Into<Operand<'r, Id>>) -> Result<Self> {
        self.binary(BinaryOp::BitAnd, rhs.into().0)
    }

    /// `self | rhs`; `Err` on failure.
    pub fn try_bitor<'r>(&self, rhs: impl Into<Operand<'r, Id>>) -> Result<Self> {
        self.binary(BinaryOp::BitOr, rhs.into().0)
    }

    /// `self ^ rhs`; `Err` on failure.
    pub fn try_bitxor<'r>(&self, rhs: impl Into<Operand<'r, Id>>) -> Result<Self> {
        self.binary(BinaryOp::BitXor, rhs.into().0)
    }

    /// `self << amount` (the amount modulo the width); `Err` on failure.
    pub fn try_shl<'r>(&self, amount: impl Into<ShiftAmount<'r, Id>>) -> Result<Self> {
        self.binary(BinaryOp::Shl, amount.into().0)
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
    /// key) for an empty slice and a copy for a single value. `Err` on failure.
    pub fn sum(values: &[Self]) -> Result<Self> {
        Self::sum_of(&values.iter().collect::<Vec<_>>())
    }

    pub(crate) fn sum_of(values: &[&Self]) -> Result<Self> {
        match values {
            [] => Ok(Self::from_storage(Storage::Trivial(0))),
            [one] => Ok((*one).clone()),
            _ => {
                let mut out = Self::batch_sum_of(&[values])?;
                Ok(out.remove(0))
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
        let out = Self::batch_with(lhs, rhs, |c, l, r| integer::binary(c, op, l, r))?;
        Ok(out.into_iter().map(Self::from_storage).collect())
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
        let out = Self::batch_with(lhs, rhs, |c, l, r| {
            Ok(vec![integer::comparison(c, op, l, r)?])
        })?;
        Ok(out.into_iter().map(FheBool::from_storage).collect())
    }

    /// `build(lhs[i], rhs[i])` for every `i`, as one circuit (per GPU of the key).
    fn batch_with<'r, R: Into<Operand<'r, Id>>>(
        lhs: &'r [Self],
        rhs: impl IntoIterator<Item = R>,
        build: impl Fn(&mut Circuit, &[Wire], Rhs<'_>) -> Result<Radix> + Copy + Sync,
    ) -> Result<Vec<Storage>> {
        let rhs: Vec<OperandKind<'r, Id>> = rhs.into_iter().map(|r| r.into().0).collect();
        check_batch_lengths(lhs.len(), rhs.len())?;
        run_batch(lhs.len(), |range| {
            let mut slots = Slots::new();
            let pairs = batch_pairs(&mut slots, &lhs[range.clone()], &rhs[range])?;
            Ok((slots.inputs, move |c: &mut Circuit, w: &[Radix]| {
                pairs
                    .iter()
                    .map(|&(l, r)| build(c, &w[l], r.wires(w)))
                    .collect()
            }))
        })
    }

    /// The wrapping sum of each group, all groups in one circuit (an empty group sums
    /// to zero). `Err` on failure.
    pub fn batch_sum(groups: &[&[Self]]) -> Result<Vec<Self>> {
        let groups: Vec<Vec<&Self>> = groups.iter().map(|g| g.iter().collect()).collect();
        let refs: Vec<&[&Self]> = groups.iter().map(Vec::as_slice).collect();
        Self::batch_sum_of(&refs)
    }

    fn batch_sum_of(groups: &[&[&Self]]) -> Result<Vec<Self>> {
        let out = run_batch(groups.len(), |range| {
            let mut slots = Slots::new();
            let indices: Vec<Vec<usize>> = groups[range]
                .iter()
                .map(|g| g.iter().map(|x| slots.push(x.input())).collect())
                .collect();
            Ok((slots.inputs, move |c: &mut Circuit, w: &[Radix]| {
                indices
                    .iter()
                    .map(|group| match group.as_slice() {
                        [] => integer::cast(
                            c,
                            &[],
                            super::config::block_count(c.parameters(), Id::BITS),
                        ),
                        [one] => Ok(w[*one].clone()),
                        many => {
                            let terms: Vec<&[Wire]> =
                                many.iter().map(|&i| w[i].as_slice()).collect();
                            integer::sum(c, &terms)
                        }
                    })
                    .collect()
            }))
        })?;
        Ok(out.into_iter().map(Self::from_storage).collect())
    }
}

/// `Err` unless a batch has as many right operands as left ones.
fn check_batch_lengths(lhs: usize, rhs: usize) -> Result<()> {
    check_eq("number of right operands of the batch", lhs, rhs)
}

/// Adds the operand pairs of a batch to `slots`.
fn batch_pairs<'a, Id: FheUintId>(
    slots: &mut Slots<'a>,
    lhs: &'a [FheUint<Id>],
    rhs: &'a [OperandKind<'_, Id>],
) -> Result<Vec<(usize, SlotRhs)>> {
    check_batch_lengths(lhs.len(), rhs.len())?;
    Ok(lhs
        .iter()
        .zip(rhs)
        .map(|(l, r)| (slots.push(l.input()), slots.push_rhs(r)))
        .collect())
}
