//! The CPU backend: steps run on the rayon pool, bootstraps in batches that share
//! each read of the key.

use super::{check_expr, Backend, Step};
use crate::core_crypto::{
    add_lwe_ciphertext_assign, add_plaintext_to_lwe_ciphertext_assign,
    mul_lwe_ciphertext_by_scalar_assign, LweCiphertextOwned,
};
use crate::error::Result;
use crate::shortint::{Ciphertext, LookupTable, ServerKey, ShortintParameters};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Runs steps with a [`ServerKey`] on the CPU. Cloning shares the key.
#[derive(Debug, Clone)]
pub struct CpuBackend {
    key: Arc<ServerKey>,
    pbs: Arc<AtomicU64>,
}

impl CpuBackend {
    /// A backend evaluating with `key`.
    pub fn new(key: ServerKey) -> Self {
        Self {
            key: Arc::new(key),
            pbs: Arc::new(AtomicU64::new(0)),
        }
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

    /// ```
    /// use gpufhe::backend::{cpu::CpuBackend, Backend, BlockExpr, Step};
    /// use gpufhe::shortint::{ClientKey, ServerKey, DEFAULT_PARAMETERS};
    /// let ck = ClientKey::new(DEFAULT_PARAMETERS).unwrap();
    /// let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
    /// let xor = backend.server_key().generate_lookup_table(|x| (x >> 2) ^ (x & 3)).unwrap();
    /// let inputs = vec![ck.encrypt(1).unwrap(), ck.encrypt(3).unwrap()];
    /// let step = Step { exprs: vec![BlockExpr::bivariate(0, 1, 4, 0)], luts: vec![&xor] };
    /// let out = backend.eval(&inputs, &step).unwrap();
    /// assert_eq!(ck.decrypt(&out[0]).unwrap(), 1 ^ 3);
    /// assert_eq!(backend.pbs_count(), 1);
    /// ```
    fn eval(&self, inputs: &Vec<Ciphertext>, step: &Step<'_>) -> Result<Vec<Ciphertext>> {
        let params = self.key.parameters();
        let bounds: Vec<(u64, u64)> = step
            .exprs
            .iter()
            .map(|expr| {
                check_expr(params, expr, step.luts.len(), inputs.len(), |b| {
                    (inputs[b].degree(), inputs[b].noise_level())
                })
            })
            .collect::<Result<_>>()?;
        let linear: Vec<Ciphertext> = step
            .exprs
            .par_iter()
            .zip(&bounds)
            .map(|(expr, &(degree, noise))| {
                let size = params.big_lwe_dimension().to_lwe_size();
                let mut acc = LweCiphertextOwned::new_zero(size);
                let mut term = LweCiphertextOwned::new_zero(size);
                for t in &expr.terms {
                    term.as_mut_slice()
                        .copy_from_slice(inputs[t.block].as_lwe().as_slice());
                    mul_lwe_ciphertext_by_scalar_assign(&mut term, t.scalar as u64);
                    add_lwe_ciphertext_assign(&mut acc, &term)?;
                }
                add_plaintext_to_lwe_ciphertext_assign(
                    &mut acc,
                    expr.constant.wrapping_mul(params.delta()),
                );
                Ok(Ciphertext::from_parts(acc, degree, noise, params))
            })
            .collect::<Result<_>>()?;
        let with_lut: Vec<usize> = (0..step.exprs.len())
            .filter(|&j| step.exprs[j].lut.is_some())
            .collect();
        if with_lut.is_empty() {
            return Ok(linear);
        }
        let cts: Vec<Ciphertext> = with_lut.iter().map(|&j| linear[j].clone()).collect();
        let luts: Vec<&LookupTable> = with_lut
            .iter()
            .map(|&j| step.luts[step.exprs[j].lut.expect("filtered")])
            .collect();
        let bootstrapped = self.key.apply_lookup_table_batch(&cts, &luts)?;
        self.pbs
            .fetch_add(bootstrapped.len() as u64, Ordering::Relaxed);
        let mut out = linear;
        for (j, ct) in with_lut.into_iter().zip(bootstrapped) {
            out[j] = ct;
        }
        Ok(out)
    }

    fn pbs_count(&self) -> u64 {
        self.pbs.load(Ordering::Relaxed)
    }

    fn upload(&self, blocks: Vec<Ciphertext>) -> Result<Vec<Ciphertext>> {
        Ok(blocks)
    }

    fn download(&self, blocks: &Vec<Ciphertext>) -> Result<Vec<Ciphertext>> {
        Ok(blocks.clone())
    }

    fn concat(&self, parts: &[&Vec<Ciphertext>]) -> Result<Vec<Ciphertext>> {
        Ok(parts.iter().flat_map(|p| p.iter().cloned()).collect())
    }

    fn block_count(&self, blocks: &Vec<Ciphertext>) -> usize {
        blocks.len()
    }

    fn degrees(&self, blocks: &Vec<Ciphertext>) -> Vec<u64> {
        blocks.iter().map(Ciphertext::degree).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::{BlockExpr, Term};
    use crate::error::Error;
    use crate::shortint::{ClientKey, PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2};

    #[test]
    fn a_step_mixes_linear_outputs_and_tables_and_counts_bootstraps() {
        let ck = ClientKey::new(PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2).unwrap();
        let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
        let key = backend.server_key();
        let carry = key.generate_lookup_table(|x| x >> 2).unwrap();
        let message = key.generate_lookup_table(|x| x & 3).unwrap();
        let inputs: Vec<Ciphertext> = [3, 2, 1].iter().map(|&m| ck.encrypt(m).unwrap()).collect();
        let sum = |a, b| {
            vec![
                Term {
                    block: a,
                    scalar: 1,
                },
                Term {
                    block: b,
                    scalar: 1,
                },
            ]
        };
        let step = Step {
            exprs: vec![
                BlockExpr {
                    terms: sum(0, 1),
                    constant: 0,
                    lut: Some(1),
                },
                BlockExpr {
                    terms: sum(0, 1),
                    constant: 0,
                    lut: Some(0),
                },
                BlockExpr {
                    terms: sum(1, 2),
                    constant: 4,
                    lut: None,
                },
                BlockExpr::lut_of(2, 0),
            ],
            luts: vec![&carry, &message],
        };
        let out = backend.eval(&inputs, &step).unwrap();
        let got: Vec<u64> = out
            .iter()
            .map(|c| ck.decrypt_message_and_carry(c).unwrap())
            .collect();
        assert_eq!(got, vec![1, 1, 7, 0]);
        assert_eq!(out[2].degree(), 3 + 3 + 4);
        assert_eq!(backend.pbs_count(), 3);

        // Negative factors: 3 - x (bitwise not of a 2-bit message) and y - x + 3.
        let neg = |b| Term {
            block: b,
            scalar: -1,
        };
        let step = Step {
            exprs: vec![
                BlockExpr {
                    terms: vec![neg(0)],
                    constant: 3,
                    lut: None,
                },
                BlockExpr {
                    terms: vec![
                        Term {
                            block: 1,
                            scalar: 1,
                        },
                        neg(0),
                    ],
                    constant: 3,
                    lut: Some(1),
                },
            ],
            luts: vec![&carry, &message],
        };
        let out = backend.eval(&inputs, &step).unwrap();
        assert_eq!(ck.decrypt_message_and_carry(&out[0]).unwrap(), 0);
        assert_eq!(ck.decrypt_message_and_carry(&out[1]).unwrap(), 2);
        assert_eq!((out[0].degree(), out[0].noise_level()), (3, 1));

        // Out-of-range indices and overflowing expressions are errors, and nothing runs.
        for bad in [
            BlockExpr::lut_of(3, 0),
            BlockExpr::lut_of(0, 2),
            BlockExpr {
                terms: vec![Term {
                    block: 0,
                    scalar: 6,
                }],
                constant: 0,
                lut: None,
            },
            BlockExpr {
                terms: vec![],
                constant: 1,
                lut: None,
            },
            BlockExpr {
                terms: vec![neg(0)],
                constant: 2,
                lut: None,
            },
        ] {
            let step = Step {
                exprs: vec![bad.clone()],
                luts: vec![&carry, &message],
            };
            let err = backend.eval(&inputs, &step).unwrap_err();
            assert!(
                matches!(err, Error::InvalidParameter(_) | Error::CapacityExceeded(_)),
                "{bad:?}: {err}"
            );
        }
        assert_eq!(backend.pbs_count(), 4);
    }
}
