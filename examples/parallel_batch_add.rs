//! The multi-GPU guide's batch of 64-bit additions, on CPU keys: the batch is cut
//! into one chunk per server key, and each chunk is processed in parallel with
//! rayon, every worker calling `set_server_key` for its chunk's key. With GPU keys
//! (`decompress_to_specific_gpu`) the same code spreads the batch over GPUs.
//!
//! Run with `cargo run --release --example parallel_batch_add`.

use gpufhe::prelude::*;
use gpufhe::{set_server_key, ClientKey, CompressedServerKey, ConfigBuilder, FheUint64};
use rayon::prelude::*;
use std::time::Instant;

/// xorshift64*, to keep the example free of dependencies.
fn next(state: &mut u64) -> u64 {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    state.wrapping_mul(0x2545_f491_4f6c_dd1d)
}

fn main() {
    let config = ConfigBuilder::default().build();

    let client_key = ClientKey::generate(config);
    let compressed_server_key = CompressedServerKey::new(&client_key);

    let num_keys = 2;
    let sks_vec = (0..num_keys)
        .map(|_| compressed_server_key.decompress())
        .collect::<Vec<_>>();

    let batch_size = num_keys * 4;

    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    let clear_left: Vec<u64> = (0..batch_size).map(|_| next(&mut rng)).collect();
    let clear_right: Vec<u64> = (0..batch_size).map(|_| next(&mut rng)).collect();
    let left_inputs = clear_left
        .iter()
        .map(|&v| FheUint64::encrypt(v, &client_key))
        .collect::<Vec<_>>();
    let right_inputs = clear_right
        .iter()
        .map(|&v| FheUint64::encrypt(v, &client_key))
        .collect::<Vec<_>>();

    let t = Instant::now();
    let chunk_size = batch_size / num_keys;
    let sums: Vec<Vec<FheUint64>> = left_inputs
        .par_chunks(chunk_size)
        .zip(right_inputs.par_chunks(chunk_size))
        .enumerate()
        .map(|(i, (left_inputs_i, right_inputs_i))| {
            left_inputs_i
                .par_iter()
                .zip(right_inputs_i.par_iter())
                .map(|(left_input, right_input)| {
                    set_server_key(sks_vec[i].clone());
                    left_input + right_input
                })
                .collect()
        })
        .collect();
    println!(
        "{batch_size} FheUint64 additions over {num_keys} keys: {:.2} s",
        t.elapsed().as_secs_f64()
    );

    for (k, sum) in sums.iter().flatten().enumerate() {
        let clear: u64 = sum.decrypt(&client_key);
        assert_eq!(clear, clear_left[k].wrapping_add(clear_right[k]));
    }
    for (i, key) in sks_vec.iter().enumerate() {
        println!("key {i}: {} bootstraps", key.pbs_count());
    }
}
