//! `CudaBackend` against `CpuBackend` on the same key: steps mixing linear outputs,
//! tables and many-function tables, negative factors, rejected steps, splits and
//! downloads, whole integer circuits, and threads evaluating concurrently. Every
//! GPU result must decrypt to the CPU's, with the same bookkeeping. Skips without a
//! GPU.

use crate::cuda_support;

use crate::skip::gpu_for_tests;
use cuda_support::small_parameters;
use gpufhe::backend::cpu::CpuBackend;
use gpufhe::backend::cuda::{CudaBackend, CudaDevice};
use gpufhe::backend::{Backend, BlockExpr, BlockInfo, Step, Table, Term};
use gpufhe::integer::{self, decrypt_radix, encrypt_radix};
use gpufhe::shortint::{Ciphertext, ClientKey, CompressedServerKey, DEFAULT_PARAMETERS};
use gpufhe::Error;

struct Backends {
    ck: ClientKey,
    cpu: CpuBackend,
    cuda: CudaBackend,
}

fn backends(gpu: &CudaDevice) -> Backends {
    let ck = ClientKey::new(small_parameters()).expect("client key");
    let compressed = CompressedServerKey::new(&ck).expect("server key");
    Backends {
        cpu: CpuBackend::new(compressed.decompress().unwrap()),
        cuda: CudaBackend::new(gpu, &compressed).expect("GPU backend"),
        ck,
    }
}

fn term(block: usize, scalar: i64) -> Term {
    Term { block, scalar }
}

/// Value (with carries) and bookkeeping of each block.
fn contents(ck: &ClientKey, blocks: &[Ciphertext]) -> Vec<(u64, u64, u64)> {
    blocks
        .iter()
        .map(|c| {
            let value = ck.decrypt_message_and_carry(c).expect("decrypt");
            (value, c.degree(), c.noise_level())
        })
        .collect()
}

/// Runs `step` on both backends; returns the GPU's contents after checking that
/// they equal the CPU's (or that both reject the step with the same kind of error).
fn eval_both(
    b: &Backends,
    inputs: &[Vec<Ciphertext>],
    step: &Step<'_>,
) -> Result<Vec<(u64, u64, u64)>, Error> {
    let cpu_inputs: Vec<&Vec<Ciphertext>> = inputs.iter().collect();
    let uploaded: Vec<_> = inputs
        .iter()
        .map(|v| b.cuda.upload(v.clone()).expect("upload"))
        .collect();
    let gpu_inputs: Vec<_> = uploaded.iter().collect();
    let cpu = b.cpu.eval(&cpu_inputs, step);
    let gpu = b.cuda.eval(&gpu_inputs, step);
    match (cpu, gpu) {
        (Ok(cpu), Ok(gpu)) => {
            let down = b.cuda.download(&gpu).expect("download");
            assert_eq!(b.cuda.block_infos(&gpu).len(), down.len());
            let got = contents(&b.ck, &down);
            assert_eq!(got, contents(&b.ck, &cpu), "GPU and CPU differ on {step:?}");
            Ok(got)
        }
        (Err(cpu), Err(gpu)) => {
            assert_eq!(
                std::mem::discriminant(&cpu),
                std::mem::discriminant(&gpu),
                "{cpu} / {gpu}"
            );
            Err(gpu)
        }
        (cpu, gpu) => panic!(
            "the backends disagree on {step:?}: CPU {:?}, GPU {:?}",
            cpu.map(|_| ()),
            gpu.map(|_| ())
        ),
    }
}

#[test]
fn steps_give_the_cpu_results_and_bookkeeping() {
    let Some(gpu) = gpu_for_tests() else { return };
    let b = backends(&gpu);
    let p = *b.cuda.parameters();
    let carry = Table::new(&p, |x| x >> 2).unwrap();
    let split = Table::on_domain(&p, 7, &[&|x| x % 4, &|x| x / 4]).unwrap();
    let four = Table::on_domain(
        &p,
        3,
        &[&|x| x, &|x| 3 - x, &|x| x * x, &|x| (x == 2) as u64],
    )
    .unwrap();
    let first: Vec<Ciphertext> = [3, 2].iter().map(|&m| b.ck.encrypt(m).unwrap()).collect();
    let second = vec![b.ck.encrypt(1).unwrap()];
    let inputs = [first.clone(), second];
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
            BlockExpr::table_of(1, 2),
            BlockExpr::copy_of(0),
        ],
        tables: vec![&carry, &split, &four],
    };
    let got = eval_both(&b, &inputs, &step).unwrap();
    let values: Vec<u64> = got.iter().map(|g| g.0).collect();
    assert_eq!(values, vec![1, 1, 7, 0, 9, 2, 1, 4, 1, 3]);
    assert_eq!((got[2].1, got[2].2), (10, 2));
    assert_eq!((got[4].1, got[4].2), (9, 0));
    assert_eq!(b.cuda.pbs_count(), 3);

    // Negative factors: 3 - x and y - x + 5 through a table.
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
        tables: vec![&carry],
    };
    let got = eval_both(&b, &inputs[..1], &step).unwrap();
    assert_eq!((got[0].0, got[1].0), (0, 1));

    // Rejected steps run nothing.
    let before = b.cuda.pbs_count();
    for bad in [
        BlockExpr::table_of(3, 0),
        BlockExpr::table_of(0, 3),
        BlockExpr {
            terms: vec![term(0, 6)],
            constant: 0,
            table: None,
        },
        BlockExpr {
            terms: vec![term(0, 1), term(1, 1)],
            constant: 0,
            table: Some(2),
        },
    ] {
        let step = Step {
            exprs: vec![bad.clone()],
            tables: vec![&carry, &split, &four],
        };
        let err = eval_both(&b, &inputs, &step).unwrap_err();
        assert!(
            matches!(err, Error::InvalidParameter(_) | Error::CapacityExceeded(_)),
            "{bad:?}: {err}"
        );
    }
    assert_eq!(b.cuda.pbs_count(), before);

    // An empty step, and a step of linear outputs only.
    assert!(eval_both(&b, &inputs, &Step::default()).unwrap().is_empty());
    let copies = Step {
        exprs: (0..3).rev().map(BlockExpr::copy_of).collect(),
        tables: vec![],
    };
    let got = eval_both(&b, &inputs, &copies).unwrap();
    assert_eq!(got.iter().map(|g| g.0).collect::<Vec<_>>(), vec![1, 2, 3]);
}

#[test]
fn blocks_split_download_and_feed_later_steps() {
    let Some(gpu) = gpu_for_tests() else { return };
    let b = backends(&gpu);
    let blocks: Vec<Ciphertext> = (0..5).map(|m| b.ck.encrypt(m % 4).unwrap()).collect();
    let on_gpu = b.cuda.upload(blocks.clone()).unwrap();
    assert_eq!(b.cuda.block_count(&on_gpu), 5);
    let parts = b.cuda.split(on_gpu, &[2, 0, 3]).unwrap();
    let down: Vec<Vec<Ciphertext>> = parts.iter().map(|p| b.cuda.download(p).unwrap()).collect();
    assert_eq!(
        down,
        vec![blocks[..2].to_vec(), vec![], blocks[2..].to_vec()]
    );
    // Views of one list as inputs of a step: block 3 of the inputs is parts[2][1].
    let refs: Vec<_> = parts.iter().collect();
    let step = Step {
        exprs: vec![BlockExpr {
            terms: vec![term(3, 1), term(0, 1)],
            constant: 1,
            table: None,
        }],
        tables: vec![],
    };
    let out = b.cuda.eval(&refs, &step).unwrap();
    let out = b.cuda.download(&out).unwrap();
    // parts[2][1] (3) + parts[0][0] (0) + 1.
    assert_eq!(b.ck.decrypt_message_and_carry(&out[0]).unwrap(), 4);
    assert_eq!(
        b.cuda.block_infos(&parts[2]),
        vec![
            BlockInfo {
                degree: 3,
                noise_level: 1
            };
            3
        ]
    );
    assert!(b.cuda.split(parts[0].clone(), &[1]).is_err());
    // Blocks of other parameters are refused.
    let other = ClientKey::new(DEFAULT_PARAMETERS).unwrap();
    assert!(b.cuda.upload(vec![other.encrypt(1).unwrap()]).is_err());
}

#[test]
fn integer_circuits_match_the_cpu() {
    let Some(gpu) = gpu_for_tests() else { return };
    let b = backends(&gpu);
    let pairs = [
        (0u128, 0xffffu128),
        (0xffff, 1),
        (12_345, 54_321),
        (0x8000, 0x8000),
    ];
    let encrypt = |v| encrypt_radix(&b.ck, v, 8).unwrap();
    let cpu_in: Vec<Vec<Ciphertext>> = pairs
        .iter()
        .flat_map(|&(x, y)| [encrypt(x), encrypt(y)])
        .collect();
    let build = |c: &mut integer::Circuit, w: &[Vec<integer::Wire>]| {
        w.chunks(2)
            .flat_map(|xy| {
                [
                    integer::add(c, &xy[0], &xy[1]),
                    integer::mul(c, &xy[0], &xy[1]),
                    integer::eq(c, &xy[0], &xy[1]).map(|w| vec![w]),
                ]
            })
            .collect()
    };
    let cpu_refs: Vec<&Vec<Ciphertext>> = cpu_in.iter().collect();
    let cpu_out = integer::run(&b.cpu, &cpu_refs, build).unwrap();
    let gpu_in: Vec<_> = cpu_in
        .iter()
        .map(|v| b.cuda.upload(v.clone()).unwrap())
        .collect();
    let gpu_refs: Vec<_> = gpu_in.iter().collect();
    let gpu_out = integer::run(&b.cuda, &gpu_refs, build).unwrap();
    assert_eq!(cpu_out.len(), gpu_out.len());
    for (i, (c, g)) in cpu_out.iter().zip(&gpu_out).enumerate() {
        let g = b.cuda.download(g).unwrap();
        let (x, y) = pairs[i / 3];
        let clear = match i % 3 {
            0 => (x + y) & 0xffff,
            1 => (x * y) & 0xffff,
            _ => (x == y) as u128,
        };
        let clear = gpufhe::integer::U2048::from(clear);
        assert_eq!(decrypt_radix(&b.ck, &g).unwrap(), clear, "output {i}");
        assert_eq!(decrypt_radix(&b.ck, c).unwrap(), clear, "output {i}");
    }
}

#[test]
fn threads_evaluate_concurrently_on_their_own_streams() {
    let Some(gpu) = gpu_for_tests() else { return };
    let b = backends(&gpu);
    let p = *b.cuda.parameters();
    let square = Table::new(&p, |x| x * x % 16).unwrap();
    let streams_before = b.cuda.device().streams_created();
    std::thread::scope(|scope| {
        for t in 0..8u64 {
            let (b, square) = (&b, &square);
            // Each thread its own stream, sharing the key and the counters.
            let cuda = b.cuda.on_new_stream().unwrap();
            assert!(cuda.device().same_device(b.cuda.device()));
            scope.spawn(move || {
                let values: Vec<u64> = (0..64).map(|i| (i * 7 + t) % 4).collect();
                let blocks = values.iter().map(|&v| b.ck.encrypt(v).unwrap()).collect();
                let on_gpu = cuda.upload(blocks).unwrap();
                let step = Step {
                    exprs: (0..64).map(|i| BlockExpr::table_of(i, 0)).collect(),
                    tables: vec![square],
                };
                for _ in 0..3 {
                    let out = cuda.eval(&[&on_gpu], &step).unwrap();
                    let out = cuda.download(&out).unwrap();
                    for (v, c) in values.iter().zip(&out) {
                        assert_eq!(b.ck.decrypt_message_and_carry(c).unwrap(), v * v % 16);
                    }
                }
            });
        }
    });
    assert_eq!(b.cuda.pbs_count(), 8 * 3 * 64);
    assert_eq!(
        b.cuda.launch_count(),
        8 * 3,
        "one bootstrap launch per step"
    );
    assert_eq!(b.cuda.device().streams_created(), streams_before + 8);
}
