//! The last program of the TFHE-rs multi-GPU guide (`../shared/reference`: a batch of
//! `FheUint64` additions over every GPU, 4 streams per GPU), with only the crate name
//! changed and `.unwrap()` added where gpufhe returns a `Result`: it must compile,
//! and it runs where there is a GPU (without one, `get_number_of_gpus()` is 0 and the
//! guide's `batch_size / num_gpus` would divide by zero, so the test skips).

use gpufhe::core_crypto::gpu::get_number_of_gpus;
use gpufhe::prelude::*;
use gpufhe::{set_server_key, ClientKey, CompressedServerKey, ConfigBuilder, FheUint64, GpuIndex};
use rand::{thread_rng, Rng};
use rayon::prelude::*;

/// The guide's `main`, unchanged but for `tfhe` -> `gpufhe` and one `.unwrap()`.
#[allow(unused_variables)]
fn guide_main() {
    let config = ConfigBuilder::default().build();

    let client_key = ClientKey::generate(config);
    let compressed_server_key = CompressedServerKey::new(&client_key);

    let num_gpus = get_number_of_gpus();
    let sks_vec = (0..num_gpus)
        .map(|i| compressed_server_key.decompress_to_specific_gpu(GpuIndex::new(i)))
        .collect::<Vec<_>>();
    let batch_size = num_gpus * 100;

    let mut rng = thread_rng();
    let left_inputs = (0..batch_size)
        .map(|_| FheUint64::encrypt(rng.r#gen::<u64>(), &client_key))
        .collect::<Vec<_>>();
    let right_inputs = (0..batch_size)
        .map(|_| FheUint64::encrypt(rng.r#gen::<u64>(), &client_key))
        .collect::<Vec<_>>();
    let amounts = (0..batch_size)
        .map(|_| FheUint64::encrypt(rng.r#gen::<u64>(), &client_key))
        .collect::<Vec<_>>();

    let chunk_size = (batch_size / num_gpus) as usize;
    let num_streams_per_gpu = 4;
    left_inputs
        .par_chunks(chunk_size)
        .zip(
            right_inputs
                .par_chunks(chunk_size)
                .zip(amounts.par_chunks(chunk_size)),
        )
        .enumerate()
        .for_each(
            |(i, (left_inputs_gpu_i, (right_inputs_gpu_i, amount_gpu_i)))| {
                let stream_chunk_size = left_inputs_gpu_i.len() / num_streams_per_gpu;
                left_inputs_gpu_i
                    .par_chunks(stream_chunk_size)
                    .zip(right_inputs_gpu_i.par_chunks(stream_chunk_size))
                    .zip(amount_gpu_i.par_chunks(stream_chunk_size))
                    .for_each(|((left_inputs_chunk, right_inputs_chunk), amount_chunk)| {
                        set_server_key(sks_vec[i].clone());
                        left_inputs_chunk
                            .iter()
                            .zip(right_inputs_chunk.iter().zip(amount_chunk.iter()))
                            .for_each(|(left_input, (right_input, amount))| {
                                let _ = left_input + right_input;
                            });
                    });
            },
        );
}

#[test]
fn the_guide_program_compiles_and_runs_where_there_is_a_gpu() {
    if get_number_of_gpus() == 0 {
        crate::skip::report_skipped(format_args!("(no CUDA device)"));
        return;
    }
    guide_main();
}
