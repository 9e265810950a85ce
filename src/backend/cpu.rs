//! The CPU backend: steps run on the rayon pool, bootstraps in batches that share
//! each read of the key.

use super::{check_step, Backend, BlockInfo, Step, Table, TableCache};
use crate::core_crypto::{
    add_lwe_ciphertext_assign, add_plaintext_to_lwe_ciphertext_assign,
    mul_lwe_ciphertext_by_scalar_assign, LweCiphertextOwned,
};
use crate::error::{check_eq, Error, Result};
use crate::shortint::{
    Ciphertext, ManyLookupTable, ServerKey, ShortintParameters, SplitBootstraps,
};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;

/// Runs steps with a [`ServerKey`] on the CPU. Cloning shares the key.
#[derive(Debug, Clone)]
pub struct CpuBackend {
    key: Arc<ServerKey>,
    pbs: Arc<AtomicU64>,
    /// Circuits running on the threads this backend computes on, kept by the
    /// scheduler's CPU worker; a lone bootstrap is split over threads only while at
    /// most one runs.
    running: Option<Arc<AtomicUsize>>,
    /// The accumulators of the tables steps have used.
    tables: Arc<TableCache<Table, ManyLookupTable>>,
}

impl CpuBackend {
    /// A backend evaluating with `key`.
    pub fn new(key: ServerKey) -> Self {
        Self::from_shared(Arc::new(key))
    }

    /// A backend evaluating with a shared key.
    pub fn from_shared(key: Arc<ServerKey>) -> Self {
        Self {
            key,
            pbs: Arc::new(AtomicU64::new(0)),
            running: None,
            tables: Arc::new(TableCache::new()),
        }
    }

    /// This backend, told how many circuits run on its threads (see
    /// [`crate::scheduler`]).
    pub(crate) fn with_running_circuits(mut self, running: Arc<AtomicUsize>) -> Self {
        self.running = Some(running);
        self
    }

    /// The server key.
    pub fn server_key(&self) -> &ServerKey {
        &self.key
    }
}

impl Backend for CpuBackend {
    type Blocks = Vec<Ciphertext>;

    fn parameters(&self) -> &ShortintParameters {
        self.key.parameters()
    }

    fn parallelism(&self) -> usize {
        rayon::current_num_threads()
    }

    /// ```
    /// use gpufhe::backend::{cpu::CpuBackend, Backend, BlockExpr, Step, Table, Term};
    /// use gpufhe::shortint::{ClientKey, ServerKey};
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as PARAMETERS;
    /// let ck = ClientKey::new(PARAMETERS).unwrap();
    /// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
    /// let xor = Table::new(backend.parameters(), |x| (x >> 2) ^ (x & 3)).unwrap();
    /// let inputs = vec![ck.encrypt(1).unwrap(), ck.encrypt(3).unwrap()];
    /// let packed = BlockExpr {
    ///     terms: vec![Term { block: 0, scalar: 4 }, Term { block: 1, scalar: 1 }],
    ///     constant: 0,
    ///     table: Some(0),
    /// };
    /// let out = backend.eval(&[&inputs], &Step { exprs: vec![packed], tables: vec![&xor] }).unwrap();
    /// assert_eq!(ck.decrypt(&out[0]).unwrap(), 1 ^ 3);
    /// assert_eq!(backend.pbs_count(), 1);
    /// ```
    fn eval(&self, inputs: &[&Vec<Ciphertext>], step: &Step<'_>) -> Result<Vec<Ciphertext>> {
        let params = self.key.parameters();
        let pool: Vec<&Ciphertext> = inputs.iter().flat_map(|part| part.iter()).collect();
        let infos: Vec<BlockInfo> = pool.iter().map(|c| block_info(c)).collect();
        let info = check_step(params, step, &infos)?;
        for c in &pool {
            c.check_parameters(params)?;
        }
        // Linear parts, in parallel (cheap next to a bootstrap).
        let size = params.big_lwe_dimension().to_lwe_size();
        let linear: Vec<LweCiphertextOwned> = step
            .exprs
            .par_iter()
            .map(|expr| {
                let mut acc = LweCiphertextOwned::new_zero(size);
                let mut term = LweCiphertextOwned::new_zero(size);
                for t in &expr.terms {
                    term.as_mut_slice()
                        .copy_from_slice(pool[t.block].as_lwe().as_slice());
                    mul_lwe_ciphertext_by_scalar_assign(&mut term, t.scalar as u64);
                    add_lwe_ciphertext_assign(&mut acc, &term)?;
                }
                add_plaintext_to_lwe_ciphertext_assign(
                    &mut acc,
                    expr.constant.wrapping_mul(params.delta()),
                );
                Ok(acc)
            })
            .collect::<Result<_>>()?;
        // The bootstrapped expressions, all in one batch; lone bootstraps split over
        // threads only if no other circuit needs them.
        let alone = self
            .running
            .as_ref()
            .is_none_or(|r| r.load(Ordering::Relaxed) <= 1);
        let split = if alone {
            SplitBootstraps::WhenThreadsAllow
        } else {
            SplitBootstraps::Never
        };
        let tables: Vec<Arc<ManyLookupTable>> = step
            .tables
            .iter()
            .map(|&t| {
                self.tables
                    .get_or_make(t, || ManyLookupTable::from_table(params, t))
            })
            .collect::<Result<_>>()?;
        // Linear results that are bootstrapped move into the batch; the others stay.
        let mut bootstrap_inputs = Vec::new();
        let mut bootstrap_tables = Vec::new();
        let mut kept = Vec::new();
        for ((expr, acc), bounds) in step.exprs.iter().zip(linear).zip(&info.linear) {
            match expr.table {
                Some(t) => {
                    let input =
                        Ciphertext::from_parts(acc, bounds.degree, bounds.noise_level, params);
                    bootstrap_inputs.push(input);
                    bootstrap_tables.push(&*tables[t]);
                }
                None => kept.push(acc),
            }
        }
        let mut kept = kept.into_iter();
        let mut bootstrapped = self
            .key
            .apply_many_lookup_table_batch_with(&bootstrap_inputs, &bootstrap_tables, split)?
            .into_iter();
        self.pbs
            .fetch_add(bootstrap_inputs.len() as u64, Ordering::Relaxed);
        let mut out = Vec::with_capacity(info.outputs.len());
        let missing = || Error::InvalidParameter("internal: missing step output".into());
        for expr in &step.exprs {
            match expr.table {
                Some(_) => out.extend(bootstrapped.next().ok_or_else(missing)?),
                None => {
                    let bounds = info.outputs[out.len()];
                    out.push(Ciphertext::from_parts(
                        kept.next().ok_or_else(missing)?,
                        bounds.degree,
                        bounds.noise_level,
                        params,
                    ));
                }
            }
        }
        Ok(out)
    }

    fn pbs_count(&self) -> u64 {
        self.pbs.load(Ordering::Relaxed)
    }

    fn upload(&self, blocks: Vec<Ciphertext>) -> Result<Vec<Ciphertext>> {
        let params = self.key.parameters();
        for b in &blocks {
            self.key.check_block(b)?;
            params.check_capacity(b.degree(), b.noise_level())?;
        }
        Ok(blocks)
    }

    fn download(&self, blocks: &Vec<Ciphertext>) -> Result<Vec<Ciphertext>> {
        Ok(blocks.clone())
    }

    fn split(&self, blocks: Vec<Ciphertext>, lengths: &[usize]) -> Result<Vec<Vec<Ciphertext>>> {
        check_eq(
            "total length of the split",
            blocks.len(),
            lengths.iter().sum(),
        )?;
        let mut rest = blocks.into_iter();
        Ok(lengths
            .iter()
            .map(|&n| rest.by_ref().take(n).collect())
            .collect())
    }

    fn block_count(&self, blocks: &Vec<Ciphertext>) -> usize {
        blocks.len()
    }

    fn block_infos(&self, blocks: &Vec<Ciphertext>) -> Vec<BlockInfo> {
        blocks.iter().map(block_info).collect()
    }
}

fn block_info(c: &Ciphertext) -> BlockInfo {
    BlockInfo {
        degree: c.degree(),
        noise_level: c.noise_level(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::{BlockExpr, Table, Term};
    use crate::error::Error;
    use crate::shortint::{ClientKey, PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2};

    fn term(block: usize, scalar: i64) -> Term {
        Term { block, scalar }
    }

    #[test]
    fn a_step_mixes_linear_outputs_tables_and_many_functions() {
        let ck = ClientKey::new(PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2).unwrap();
        let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
        let params = *backend.parameters();
        let carry = Table::new(&params, |x| x >> 2).unwrap();
        let split = Table::on_domain(&params, 7, &[&|x| x % 4, &|x| x / 4]).unwrap();
        let first: Vec<Ciphertext> = [3, 2].iter().map(|&m| ck.encrypt(m).unwrap()).collect();
        let second = vec![ck.encrypt(1).unwrap()];
        let step = Step {
            exprs: vec![
                BlockExpr {
                    terms: vec![term(0, 1), term(1, 1)],
                    constant: 0,
                    table: Some(1),
                },
                BlockExpr {
                    terms: vec![term(1, 1), term(2, 1)],
                    constant: 4,
                    table: None,
                },
                BlockExpr::table_of(2, 0),
                BlockExpr {
                    terms: vec![],
                    constant: 9,
                    table: None,
                },
            ],
            tables: vec![&carry, &split],
        };
        assert_eq!(step.output_count(), 5);
        let out = backend.eval(&[&first, &second], &step).unwrap();
        let got: Vec<u64> = out
            .iter()
            .map(|c| ck.decrypt_message_and_carry(c).unwrap())
            .collect();
        assert_eq!(got, vec![1, 1, 7, 0, 9]);
        assert_eq!((out[2].degree(), out[2].noise_level()), (3 + 3 + 4, 2));
        assert_eq!((out[1].degree(), out[1].noise_level()), (1, 1));
        assert_eq!((out[4].degree(), out[4].noise_level()), (9, 0));
        assert_eq!(backend.pbs_count(), 2);

        // Negative factors: 3 - x and y - x + 3.
        let step = Step {
            exprs: vec![
                BlockExpr {
                    terms: vec![term(0, -1)],
                    constant: 3,
                    table: None,
                },
                BlockExpr {
                    terms: vec![term(1, 1), term(0, -1)],
                    constant: 5,
                    table: Some(0),
                },
            ],
            tables: vec![&split],
        };
        // y - x + 5 may reach 8: too much for a table of two functions.
        let err = backend.eval(&[&first], &step).map(|_| ()).unwrap_err();
        assert!(matches!(err, Error::CapacityExceeded(_)), "{err}");
        let step = Step {
            tables: vec![&carry],
            ..step
        };
        let out = backend.eval(&[&first], &step).unwrap();
        assert_eq!(ck.decrypt_message_and_carry(&out[0]).unwrap(), 0);
        assert_eq!(ck.decrypt_message_and_carry(&out[1]).unwrap(), 1);
        assert_eq!((out[0].degree(), out[0].noise_level()), (3, 1));

        // Out-of-range indices and overflowing expressions are errors, and nothing runs.
        for bad in [
            BlockExpr::table_of(3, 0),
            BlockExpr::table_of(0, 2),
            BlockExpr {
                terms: vec![term(0, 6)],
                constant: 0,
                table: None,
            },
            BlockExpr {
                terms: vec![term(0, -1)],
                constant: 2,
                table: None,
            },
        ] {
            let step = Step {
                exprs: vec![bad.clone()],
                tables: vec![&carry, &split],
            };
            let err = backend
                .eval(&[&first, &second], &step)
                .map(|_| ())
                .unwrap_err();
            assert!(
                matches!(err, Error::InvalidParameter(_) | Error::CapacityExceeded(_)),
                "{bad:?}: {err}"
            );
        }
        assert_eq!(backend.pbs_count(), 3);
    }
}
