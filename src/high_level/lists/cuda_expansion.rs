//! Expanding compact lists with a `CudaServerKey`, as TFHE-rs does on its GPUs: the
//! blocks are extracted from the compact ciphertexts on the CPU, then copied to a
//! GPU of the key, where the casting keyswitch of dedicated parameters (with the
//! casting key, copied to the GPU once per server key) and the bootstraps that
//! cast, clean or unpack them run as batched launches on a stream leased from the
//! key's workers. The values stay on that GPU and decrypt as the CPU key's
//! expansion does.

use super::casting::{checked_casting_key, extracted_degree, Extract};
use crate::backend::gpu::{CudaBackend, CudaBlocks};
use crate::backend::{Backend, BlockExpr, Step, Table};
use crate::error::Result;
use crate::high_level::ServerKey;
use crate::shortint::{Ciphertext, CompactPublicKeyEncryptionParameters, ShortintParameters};

/// The blocks of every value of a list of `parameters`, in order, on `gpu` (a
/// worker of `key`): `stored`, the blocks as extracted (pairs if `packed`), cast
/// to computation blocks for dedicated parameters `casting`, bootstrapped apart if
/// packed, as `plan` says ([`super::casting::expansion_plan`]; `None` for a plain
/// list, whose blocks, their bounds already set, are only copied).
pub(crate) fn cuda_expanded_blocks(
    gpu: &CudaBackend,
    key: &ServerKey,
    parameters: &ShortintParameters,
    casting: Option<&CompactPublicKeyEncryptionParameters>,
    packed: bool,
    plan: Option<&[(usize, Extract)]>,
    mut stored: Vec<Ciphertext>,
) -> Result<CudaBlocks> {
    let Some(plan) = plan else {
        return gpu.upload(stored);
    };
    let p = *gpu.parameters();
    let m = p.message_modulus;
    let tables = Extract::ALL
        .iter()
        .map(|e| Table::new(&p, |x| e.apply(m, x)))
        .collect::<Result<Vec<Table>>>()?;
    let tables: Vec<&Table> = tables.iter().collect();
    let table_of: Vec<usize> = plan.iter().map(|&(_, e)| e.index()).collect();
    match casting {
        Some(pke) => {
            let casting = checked_casting_key(key, pke)?;
            let inputs: Vec<Ciphertext> = plan
                .iter()
                .map(|&(source, _)| {
                    let mut block = stored[source].clone();
                    block.degree = extracted_degree(packed, m, &block);
                    block
                })
                .collect();
            gpu.cast_compact_blocks(casting, &inputs, &tables, &table_of)
        }
        None => {
            super::packed::check_packable(parameters)?;
            for block in &mut stored {
                block.degree = extracted_degree(true, m, block);
            }
            let uploaded = gpu.upload(stored)?;
            let exprs = plan
                .iter()
                .zip(&table_of)
                .map(|(&(source, _), &table)| BlockExpr::table_of(source, table))
                .collect();
            gpu.eval(&[&uploaded], &Step { exprs, tables })
        }
    }
}
