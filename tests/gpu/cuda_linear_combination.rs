//! The GPU's linear combinations (one launch for all expressions of a step) against
//! the CPU backend's `eval`, bit for bit. Prints `SKIPPED (no CUDA device)` and passes where
//! there is no GPU; fails under `GPUFHE_REQUIRE_GPU=1`.

use crate::cuda_support;

use cuda_support::*;
use gpufhe::backend::cpu::CpuBackend;
use gpufhe::backend::cuda::*;
use gpufhe::backend::{Backend, BlockExpr, Step, Term};
use gpufhe::core_crypto::*;
use gpufhe::shortint::{Ciphertext, ClientKey, ServerKey};
use gpufhe::Error;

fn term(block: usize, scalar: i64) -> Term {
    Term { block, scalar }
}

/// A mix of every expression shape a step has, over `blocks` inputs of degree 3 and
/// noise level 1: sums across lists, negative factors with a constant that keeps
/// the value non-negative, the largest factors the noise budget allows, copies and
/// trivial blocks.
fn expressions(blocks: usize, count: usize) -> Vec<BlockExpr> {
    (0..count)
        .map(|e| {
            let a = (e * 13 + 5) % blocks;
            let b = (e * 7 + 1) % blocks;
            let (terms, constant) = match e % 6 {
                0 => (vec![term(a, 1), term(b, 1)], 0),
                1 => (vec![term(a, 2), term(b, -1)], 3),
                2 => (vec![term(a, 3), term(b, 2)], 0),
                3 => (vec![term(a, -1)], 3 + (e as u64 % 5)),
                4 => (vec![], e as u64 % 16),
                _ => (vec![term(a, 1)], 0),
            };
            BlockExpr {
                terms,
                constant,
                table: None,
            }
        })
        .collect()
}

#[test]
fn linear_step_is_bit_identical_to_the_cpu_backend() {
    let Some(gpu) = gpu_for_tests() else { return };
    let params = small_parameters();
    let ck = ClientKey::new(params).unwrap();
    let backend = CpuBackend::new(ServerKey::new(&ck).unwrap());
    let first: Vec<Ciphertext> = (0..300).map(|i| ck.encrypt(i % 4).unwrap()).collect();
    let second: Vec<Ciphertext> = (0..77).map(|i| ck.encrypt((i * 3) % 4).unwrap()).collect();
    let third: Vec<Ciphertext> = vec![ck.encrypt(2).unwrap()];
    let exprs = expressions(first.len() + second.len() + third.len(), 2000);
    let step = Step {
        exprs: exprs.clone(),
        tables: vec![],
    };
    let cpu = backend.eval(&[&first, &second, &third], &step).unwrap();

    let lists: Vec<CudaLweCiphertextList> = [&first, &second, &third]
        .iter()
        .map(|blocks| CudaLweCiphertextList::from_cpu(&gpu, &block_list(blocks)).unwrap())
        .collect();
    let inputs: Vec<&CudaLweCiphertextList> = lists.iter().collect();
    let mut out = CudaLweCiphertextList::new_zero(
        &gpu,
        params.big_lwe_dimension().to_lwe_size(),
        LweCiphertextCount(exprs.len()),
    )
    .unwrap();
    // The expressions as plain terms and encoded constants.
    let terms: Vec<Vec<(usize, i64)>> = exprs
        .iter()
        .map(|e| e.terms.iter().map(|t| (t.block, t.scalar)).collect())
        .collect();
    let terms: Vec<&[(usize, i64)]> = terms.iter().map(Vec::as_slice).collect();
    let constants: Vec<u64> = exprs.iter().map(|e| e.constant * params.delta()).collect();
    cuda_linear_combination_lwe_ciphertext_list(&inputs, &terms, &constants, &mut out).unwrap();
    let gpu_out = out.to_cpu().unwrap();
    assert_eq!(gpu_out, block_list(&cpu), "GPU and CPU linear steps differ");
    // And the values are what the expressions say.
    for (e, (ct, c)) in gpu_out.iter().zip(&cpu).enumerate().step_by(11) {
        let phase = decrypt_lwe_ciphertext(ck.big_lwe_secret_key(), &ct).unwrap();
        let delta = params.delta();
        let value = phase.wrapping_add(delta / 2) / delta % 32;
        assert_eq!(
            value,
            ck.decrypt_message_and_carry(c).unwrap(),
            "expression {e}"
        );
    }
}

#[test]
fn invalid_linear_steps_are_errors() {
    let Some(gpu) = gpu_for_tests() else { return };
    let size = LweSize(9);
    let host = LweCiphertextList::from_container((0..36u64).collect::<Vec<_>>(), size).unwrap();
    let list = CudaLweCiphertextList::from_cpu(&gpu, &host).unwrap();
    let mut out = CudaLweCiphertextList::new_zero(&gpu, size, LweCiphertextCount(2)).unwrap();
    let copies: Vec<[(usize, i64); 1]> = (0..8).map(|b| [(b, 1)]).collect();
    let copy = |b: usize| copies[b].as_slice();
    // A ciphertext past the inputs.
    let err = cuda_linear_combination_lwe_ciphertext_list(
        &[&list],
        &[copy(0), copy(4)],
        &[0, 0],
        &mut out,
    )
    .unwrap_err();
    assert!(matches!(err, Error::InvalidParameter(_)), "{err}");
    // As many outputs as combinations, as many constants as combinations.
    let err = cuda_linear_combination_lwe_ciphertext_list(&[&list], &[copy(0)], &[0], &mut out)
        .unwrap_err();
    assert!(
        matches!(
            err,
            Error::DimensionMismatch {
                expected: 1,
                got: 2,
                ..
            }
        ),
        "{err}"
    );
    let err =
        cuda_linear_combination_lwe_ciphertext_list(&[&list], &[copy(0), copy(1)], &[0], &mut out)
            .unwrap_err();
    assert!(matches!(err, Error::DimensionMismatch { .. }), "{err}");
    // Inputs of another size.
    let other = CudaLweCiphertextList::new_zero(&gpu, LweSize(5), LweCiphertextCount(1)).unwrap();
    assert!(cuda_linear_combination_lwe_ciphertext_list(
        &[&list, &other],
        &[copy(0), copy(1)],
        &[0, 0],
        &mut out
    )
    .is_err());
    assert_eq!(
        out.to_cpu().unwrap().as_slice(),
        &[0u64; 18],
        "failed calls write nothing"
    );
    // Ciphertexts of later lists are found after the earlier ones, the constant goes
    // to the body; no combination is fine.
    cuda_linear_combination_lwe_ciphertext_list(
        &[&list, &list],
        &[copy(7), copy(2)],
        &[0, 5],
        &mut out,
    )
    .unwrap();
    let got = out.to_cpu().unwrap();
    assert_eq!(&got.as_slice()[..9], &host.as_slice()[27..36]);
    assert_eq!(&got.as_slice()[9..17], &host.as_slice()[18..26]);
    assert_eq!(got.as_slice()[17], host.as_slice()[26] + 5);
    let mut none = CudaLweCiphertextList::new_zero(&gpu, size, LweCiphertextCount(0)).unwrap();
    cuda_linear_combination_lwe_ciphertext_list(&[&list], &[], &[], &mut none).unwrap();
}
