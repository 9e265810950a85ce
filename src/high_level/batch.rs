//! Batches of any operations: [`ServerKey::run_batch`] runs a closure on every item
//! with the operations **recorded** instead of run, one circuit per share of the
//! batch, so that `n` additions written one at a time still run as one bootstrap
//! launch per layer on each worker; and the batch functions of the integer types
//! ([`FheUint::batch`], [`FheUint::batch_compare`], [`FheUint::batch_sum`], ...),
//! many independent operations of one kind as one circuit.

use crate::error::{check_eq, Error, Result};
use crate::high_level::booleans::base::FheBool;
use crate::high_level::global_state::{current_server_key, KeyGuard};
use crate::high_level::integers::operands::{Operand, OperandKind, SignedOperand};
use crate::high_level::internals::recording;
use crate::high_level::internals::storage::Storage;
use crate::high_level::keys::server::ServerKey;
use crate::high_level::{FheInt, FheIntId, FheUint, FheUintId};
use crate::integer::{self, BinaryOp, Circuit, CircuitStats, CmpOp as ComparisonOp, Wire};
use crate::scheduler::{BatchProgress, Blocks, Chunk, Device, Recording};

/// Values a batch's closure may return ([`ServerKey::run_batch`]): encrypted values,
/// and tuples, vectors, arrays, options and results of them. Implement it for your
/// own types by visiting every encrypted value they hold, always in the same order.
///
/// ```
/// use gpufhe::high_level::{BatchOutput, ValueSlot};
/// use gpufhe::FheUint8;
/// struct Pair {
///     low: FheUint8,
///     high: FheUint8,
/// }
/// impl BatchOutput for Pair {
///     fn visit_values(&mut self, visit: &mut dyn FnMut(ValueSlot<'_>)) {
///         self.low.visit_values(visit);
///         self.high.visit_values(visit);
///     }
/// }
/// ```
pub trait BatchOutput {
    /// Calls `visit` on every encrypted value of `self`, always in the same order.
    fn visit_values(&mut self, visit: &mut dyn FnMut(ValueSlot<'_>));
}

/// One encrypted value inside a [`BatchOutput`] (opaque: the batch fills it in).
pub struct ValueSlot<'a>(&'a mut Storage);

impl<Id: FheUintId> BatchOutput for FheUint<Id> {
    fn visit_values(&mut self, visit: &mut dyn FnMut(ValueSlot<'_>)) {
        visit(ValueSlot(&mut self.storage))
    }
}

impl<Id: FheIntId> BatchOutput for FheInt<Id> {
    fn visit_values(&mut self, visit: &mut dyn FnMut(ValueSlot<'_>)) {
        self.inner.visit_values(visit)
    }
}

impl BatchOutput for FheBool {
    fn visit_values(&mut self, visit: &mut dyn FnMut(ValueSlot<'_>)) {
        visit(ValueSlot(&mut self.storage))
    }
}

impl BatchOutput for () {
    fn visit_values(&mut self, _: &mut dyn FnMut(ValueSlot<'_>)) {}
}

impl<T: BatchOutput> BatchOutput for Vec<T> {
    fn visit_values(&mut self, visit: &mut dyn FnMut(ValueSlot<'_>)) {
        self.iter_mut().for_each(|x| x.visit_values(visit))
    }
}

impl<T: BatchOutput, const N: usize> BatchOutput for [T; N] {
    fn visit_values(&mut self, visit: &mut dyn FnMut(ValueSlot<'_>)) {
        self.iter_mut().for_each(|x| x.visit_values(visit))
    }
}

impl<T: BatchOutput> BatchOutput for Option<T> {
    fn visit_values(&mut self, visit: &mut dyn FnMut(ValueSlot<'_>)) {
        if let Some(x) = self {
            x.visit_values(visit)
        }
    }
}

impl<T: BatchOutput, E> BatchOutput for std::result::Result<T, E> {
    fn visit_values(&mut self, visit: &mut dyn FnMut(ValueSlot<'_>)) {
        if let Ok(x) = self {
            x.visit_values(visit)
        }
    }
}

macro_rules! tuple_output {
    ($($name:ident),+) => {
        impl<$($name: BatchOutput),+> BatchOutput for ($($name,)+) {
            #[allow(non_snake_case)]
            fn visit_values(&mut self, visit: &mut dyn FnMut(ValueSlot<'_>)) {
                let ($($name,)+) = self;
                $($name.visit_values(visit);)+
            }
        }
    };
}
tuple_output!(A);
tuple_output!(A, B);
tuple_output!(A, B, C);
tuple_output!(A, B, C, D);

/// Runs `f` with `recording` as this thread's batch and `key` as its server key,
/// both put back as they were afterwards (also if `f` panics); returns `f`'s result
/// and the recording.
fn recorded<R>(
    key: &ServerKey,
    recording: Recording,
    f: impl FnOnce() -> R,
) -> Result<(R, Recording)> {
    /// Stops the thread's recording when dropped (also while unwinding).
    struct StopRecording;
    impl Drop for StopRecording {
        fn drop(&mut self) {
            recording::stop();
        }
    }
    let stop = StopRecording;
    let key_guard = KeyGuard::set(Some(Ok(key.clone())));
    recording::start(key.tag(), recording);
    let result = f();
    let recording = recording::stop();
    drop(key_guard);
    drop(stop);
    let recording = recording.ok_or_else(|| {
        Error::InvalidParameter("internal: the batch's recording went missing".into())
    })?;
    Ok((result, recording))
}

/// The wires of the values of `outputs` pending in `recording`, in visit order.
fn pending_wires<R: BatchOutput>(outputs: &mut [R], recording: &Recording) -> Vec<Vec<Wire>> {
    let mut wires = Vec::new();
    for out in outputs {
        out.visit_values(&mut |slot| {
            if let Storage::Encrypted { blocks, .. } = &*slot.0 {
                if let Some(w) = recording.wires_of(blocks) {
                    wires.push(w.to_vec());
                }
            }
        });
    }
    wires
}

impl ServerKey {
    /// `f` on every item, as a batch: the operations `f` makes are recorded rather
    /// than run, and the batch is split over the key's workers (its GPUs' streams,
    /// the CPU worker) in proportion to their predicted speed, each share running as
    /// **one** circuit (one bootstrap launch per layer) — the one-line form of the
    /// multi-GPU guide's `par_iter` batch. Results come back in item order.
    ///
    /// Inside `f`, this key is the thread's key and values computed there are
    /// placeholders: they can be operands of further operations in the same call of
    /// `f`, and whatever `f` returns ([`BatchOutput`]) is filled in once the batch
    /// has run; decrypting or serializing them inside `f` is an `Err`. `Err` if the
    /// batch fails to run; an error of one operation inside `f` is that item's
    /// result when `f` returns a `Result`.
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, FheUint8};
    /// let (client_key, server_key) = generate_keys(config);
    /// let pairs: Vec<(FheUint8, FheUint8)> = [(1u8, 2u8), (200, 100), (7, 7)]
    ///     .iter()
    ///     .map(|&(a, b)| (FheUint8::encrypt(a, &client_key), FheUint8::encrypt(b, &client_key)))
    ///     .collect();
    /// // Three additions and three comparisons, one circuit.
    /// let out = server_key.run_batch(&pairs, |(a, b)| (a + b, a.eq(b))).unwrap();
    /// let sums: Vec<u8> = out.iter().map(|(s, _)| s.decrypt(&client_key)).collect();
    /// assert_eq!(sums, [3, 44, 14]);
    /// assert!(out[2].1.decrypt(&client_key));
    /// assert_eq!(server_key.stats().circuits, 1);
    /// ```
    pub fn run_batch<T, R: BatchOutput>(&self, items: &[T], f: impl Fn(&T) -> R) -> Result<Vec<R>> {
        self.run_batch_observed(items, f, None)
    }

    /// [`ServerKey::run_batch`], calling `progress` (from the threads running the
    /// batch) as each bootstrap layer and each circuit finishes: for a progress bar
    /// on long batches.
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, FheUint8};
    /// use std::sync::atomic::{AtomicU64, Ordering};
    /// let (client_key, server_key) = generate_keys(config);
    /// let xs: Vec<FheUint8> = (0..4u8).map(|v| FheUint8::encrypt(v, &client_key)).collect();
    /// let done = AtomicU64::new(0);
    /// let doubled = server_key
    ///     .run_batch_with_progress(&xs, |x| x + x, |p| {
    ///         done.fetch_max(p.bootstraps_done, Ordering::Relaxed);
    ///     })
    ///     .unwrap();
    /// let six: u8 = doubled[3].decrypt(&client_key);
    /// assert_eq!(six, 6);
    /// assert_eq!(done.into_inner(), server_key.pbs_count());
    /// ```
    pub fn run_batch_with_progress<T, R: BatchOutput>(
        &self,
        items: &[T],
        f: impl Fn(&T) -> R,
        progress: impl Fn(BatchProgress) + Sync,
    ) -> Result<Vec<R>> {
        self.run_batch_observed(items, f, Some(&progress))
    }

    /// Records `f` on `item` alone, in a circuit built for `parallelism` bootstraps
    /// at once: `f`'s result (placeholders), the recording, and the circuit of one
    /// operation whose outputs are what `f` returned (so that its cost counts the
    /// bootstraps that reach them).
    fn probe<T, R: BatchOutput>(
        &self,
        item: &T,
        f: &impl Fn(&T) -> R,
        parallelism: usize,
    ) -> Result<(R, Recording, Circuit)> {
        let params = *self.scheduler().parameters();
        let (mut first, probe) = recorded(self, Recording::new(&params, parallelism), || f(item))?;
        let mut one = probe.circuit().clone();
        for wires in pending_wires(std::slice::from_mut(&mut first), &probe) {
            one.add_output(&wires);
        }
        Ok((first, probe, one))
    }

    /// The circuit statistics of one operation `f(item)` of a batch of `count`
    /// (recorded as [`ServerKey::run_batch`] records its first item, never run) and
    /// the bytes of its encrypted inputs: what a batch spread over processes is
    /// split by. `Err` inside another batch.
    #[cfg_attr(not(feature = "cluster"), allow(dead_code))]
    pub(crate) fn operation_cost<T, R: BatchOutput>(
        &self,
        item: &T,
        f: &impl Fn(&T) -> R,
        count: usize,
    ) -> Result<(CircuitStats, usize)> {
        if recording::recording() {
            return Err(Error::InvalidParameter(
                "a batch cannot be spread over processes from inside another batch".into(),
            ));
        }
        let parallelism = self.scheduler().batch_parallelism(count)?;
        let (_, _, one) = self.probe(item, f, parallelism)?;
        let lwe_bytes = one.parameters().big_lwe_dimension().to_lwe_size().0 * 8;
        let blocks: usize = one.inputs().iter().map(Vec::len).sum();
        Ok((one.stats(), blocks * lwe_bytes))
    }

    fn run_batch_observed<T, R: BatchOutput>(
        &self,
        items: &[T],
        f: impl Fn(&T) -> R,
        progress: Option<&(dyn Fn(BatchProgress) + Sync)>,
    ) -> Result<Vec<R>> {
        if items.is_empty() {
            return Ok(Vec::new());
        }
        if recording::recording() {
            // Inside another batch: these operations join its circuit.
            return Ok(items.iter().map(f).collect());
        }
        let scheduler = self.scheduler();
        let params = *scheduler.parameters();
        // The first item alone tells the cost and size of one.
        let parallelism = scheduler.batch_parallelism(items.len())?;
        let (first, probe, one) = self.probe(&items[0], &f, parallelism)?;
        let mut results = Vec::with_capacity(items.len());
        results.push(first);
        let input_bytes =
            |device: Device| probe.inputs().iter().map(|b| b.bytes_to_move(device)).sum();
        let plan = scheduler.plan_batch(items.len(), &one, &input_bytes)?;
        let mut chunks = Vec::with_capacity(plan.len());
        let mut probe = Some(probe);
        for (target, range) in &plan {
            let recording = match probe.take() {
                Some(probe) => probe,
                None => Recording::new(&params, scheduler.parallelism(*target, range.len())?),
            };
            let start = range.start.max(results.len());
            let (values, recording) = recorded(self, recording, || {
                items[start..range.end].iter().map(&f).collect::<Vec<_>>()
            })?;
            results.extend(values);
            let wires = pending_wires(&mut results[range.clone()], &recording);
            let refs: Vec<&[Wire]> = wires.iter().map(Vec::as_slice).collect();
            let id = recording.id();
            let (circuit, inputs) = recording.finish(&refs);
            chunks.push((
                id,
                Chunk {
                    target: *target,
                    circuit,
                    inputs,
                    operations: range.len(),
                },
            ));
        }
        let ids: Vec<u64> = chunks.iter().map(|(id, _)| *id).collect();
        let run = scheduler.run_chunks(chunks.into_iter().map(|(_, c)| c).collect(), progress)?;
        self.count_circuits(ids.len() as u64, run.layers);
        let tag = self.tag();
        for (((_, range), outputs), id) in plan.iter().zip(run.outputs).zip(ids) {
            let mut outputs = outputs.into_iter();
            for out in &mut results[range.clone()] {
                out.visit_values(&mut |slot| {
                    let pending = matches!(
                        &*slot.0,
                        Storage::Encrypted { blocks: Blocks::Pending { recording, .. }, .. }
                            if *recording == id
                    );
                    if pending {
                        if let Some(blocks) = outputs.next() {
                            *slot.0 = Storage::Encrypted { tag, blocks };
                        }
                    }
                });
            }
        }
        Ok(results)
    }
}

impl<Id: FheUintId> FheUint<Id> {
    /// `lhs[i] op rhs[i]` for every `i`, as **one** circuit: the bootstraps of all
    /// the operations at the same depth run in one backend step, so a batch of `n`
    /// additions takes `n` times the bootstraps of one, in as many sequential layers
    /// as one. `rhs` holds `&FheUint<Id>` or clear values. `Err` if the lengths
    /// differ, or as the single operation.
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, set_server_key, BinaryOp, FheUint8};
    /// let (client_key, server_key) = generate_keys(config);
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
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, set_server_key, FheUint8};
    /// let (client_key, server_key) = generate_keys(config);
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
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, set_server_key, ComparisonOp, FheUint8};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, server_key) = generate_keys(config);
    /// set_server_key(server_key);
    /// let lhs: Vec<FheUint8> = [1u8, 5, 9].iter().map(|&v| FheUint8::encrypt(v, &client_key)).collect();
    /// let out = FheUint8::batch_compare(ComparisonOp::Lt, &lhs, [5u8, 5, 5]).unwrap();
    /// let clear: Vec<bool> = out.iter().map(|b| b.decrypt(&client_key)).collect();
    /// assert_eq!(clear, [true, false, false]);
    /// ```
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
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, set_server_key, FheUint8};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, server_key) = generate_keys(config);
    /// set_server_key(server_key);
    /// let xs: Vec<FheUint8> = [1u8, 2, 10, 250].iter().map(|&v| FheUint8::encrypt(v, &client_key)).collect();
    /// let sums = FheUint8::batch_sum(&[&xs[..2], &xs[2..], &[]]).unwrap();
    /// let clear: Vec<u8> = sums.iter().map(|x| x.decrypt(&client_key)).collect();
    /// assert_eq!(clear, [3, 4, 0]); // 10 + 250 wraps
    /// ```
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

impl<Id: FheIntId> FheInt<Id> {
    /// `lhs[i] op rhs[i]` for every `i` (signed: `>>` is arithmetic, `min`/`max`
    /// signed), as one circuit (see [`FheUint::batch`]). `Err` if the lengths differ,
    /// or as the single operation.
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, set_server_key, BinaryOp, FheInt8};
    /// let (client_key, server_key) = generate_keys(config);
    /// set_server_key(server_key);
    /// let lhs: Vec<FheInt8> = [-1i8, 2].iter().map(|&v| FheInt8::encrypt(v, &client_key)).collect();
    /// let out = FheInt8::batch(BinaryOp::Min, &lhs, [0i8, 0]).unwrap();
    /// let clear: Vec<i8> = out.iter().map(|x| x.decrypt(&client_key)).collect();
    /// assert_eq!(clear, [-1, 0]);
    /// ```
    pub fn batch<'r, R: Into<SignedOperand<'r, Id>>>(
        op: BinaryOp,
        lhs: &'r [Self],
        rhs: impl IntoIterator<Item = R>,
    ) -> Result<Vec<Self>> {
        let out = Self::batch_with(lhs, rhs, |l, r| {
            l.binary_with(r, |c, l, r| integer::signed_binary(c, op, l, r))
        })?;
        Ok(out.into_iter().map(Self::from_inner).collect())
    }

    /// `lhs[i] op rhs[i]` for every `i` in the signed order, as one circuit.
    ///
    /// ```
    /// use gpufhe::prelude::*;
    /// use gpufhe::{generate_keys, set_server_key, ComparisonOp, FheInt8};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// let (client_key, server_key) = generate_keys(config);
    /// set_server_key(server_key);
    /// let lhs: Vec<FheInt8> = [-1i8, 2].iter().map(|&v| FheInt8::encrypt(v, &client_key)).collect();
    /// let out = FheInt8::batch_compare(ComparisonOp::Lt, &lhs, [0i8, 0]).unwrap();
    /// let clear: Vec<bool> = out.iter().map(|b| b.decrypt(&client_key)).collect();
    /// assert_eq!(clear, [true, false]); // -1 < 0 (as bits, 255 would not be)
    /// ```
    pub fn batch_compare<'r, R: Into<SignedOperand<'r, Id>>>(
        op: ComparisonOp,
        lhs: &'r [Self],
        rhs: impl IntoIterator<Item = R>,
    ) -> Result<Vec<FheBool>> {
        Self::batch_with(lhs, rhs, |l, r| {
            l.compare_with(r, |c, l, r| integer::signed_comparison(c, op, l, r))
        })
    }

    /// `op(lhs[i], rhs[i])` on the unsigned views for every `i`, as one batch.
    fn batch_with<'r, R: Into<SignedOperand<'r, Id>>, T: BatchOutput>(
        lhs: &'r [Self],
        rhs: impl IntoIterator<Item = R>,
        op: impl Fn(&FheUint<Id::Unsigned>, OperandKind<'_, Id::Unsigned>) -> Result<T>,
    ) -> Result<Vec<T>> {
        let rhs = rhs.into_iter().map(|r| r.into().0);
        FheUint::batch_with(lhs.iter().map(|x| &x.inner), rhs, op)
    }
}
