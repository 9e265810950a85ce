//! Zero-knowledge-proven compact lists, gpufhe and tfhe side by side on TFHE-rs's
//! recommended parameters (the default blocks, `PARAM_PKE_..._TUNIFORM_2M128`
//! (ZK v2) and the keyswitch to the small key), same machine, one run:
//!
//! - `zk/prove/8xFheUint64/{proof,verify}/{gpufhe,tfhe}`: proving a packed list of
//!   8 `FheUint64` (512 bits, one proof) with each compute load.
//! - `zk/verify/8xFheUint64/{proof,verify}/{gpufhe,tfhe}`: verifying it.
//! - `zk/verify_and_expand/<n>x8xFheUint64/{gpufhe,tfhe}`: `verify_and_expand` of a
//!   batch of `n` such lists (compute load `Proof`) on all cores: the same program
//!   on both crates, a `par_iter` over the lists, each task setting the server key
//!   then verifying and expanding its list, so that one list's verification runs
//!   while another's expansion (keyswitch and bootstraps) does. Throughput in lists
//!   per second. `n` is `COMPARE_ZK_BATCH` (default 64: about 4 minutes per
//!   iteration per crate on 2 cores; criterion takes 10 iterations).
//!
//! The CRS generation time (512 bits per proof) of each crate is printed first
//! (once, not a criterion measurement).
//!
//! ```text
//! cd compare && RAYON_NUM_THREADS=2 cargo bench --bench zk
//! cd compare && COMPARE_ZK_BATCH=4 cargo bench --bench zk -- verify_and_expand
//! ```

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use rayon::prelude::*;
use std::hint::black_box;
use std::time::{Duration, Instant};

const METADATA: &[u8] = b"compare";
const VALUES: [u64; 8] = [1, 2, 3, u64::MAX, 5, 6, 7, 0x1234_5678_9abc_def0];

fn batch_size() -> usize {
    std::env::var("COMPARE_ZK_BATCH")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(64)
}

struct Gpufhe {
    ck: gpufhe::ClientKey,
    sk: gpufhe::ServerKey,
    pk: gpufhe::CompactPublicKey,
    crs: gpufhe::zk::CompactPkeCrs,
}

struct Tfhe {
    ck: tfhe::ClientKey,
    sk: tfhe::ServerKey,
    pk: tfhe::CompactPublicKey,
    crs: tfhe::zk::CompactPkeCrs,
}

fn gpufhe_setup() -> Gpufhe {
    use gpufhe::shortint::parameters::{
        PARAM_KEYSWITCH_PKE_TO_SMALL_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as KS,
        PARAM_PKE_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as PKE,
    };
    let config = gpufhe::ConfigBuilder::default()
        .use_dedicated_compact_public_key_parameters((PKE, KS))
        .build();
    let start = Instant::now();
    let crs = gpufhe::zk::CompactPkeCrs::from_config(config, 512).unwrap();
    eprintln!(
        "gpufhe CRS generation (512 bits): {:.2} s",
        start.elapsed().as_secs_f64()
    );
    let ck = gpufhe::ClientKey::generate(config);
    let sk = gpufhe::ServerKey::new(&ck);
    let pk = gpufhe::CompactPublicKey::new(&ck);
    Gpufhe { ck, sk, pk, crs }
}

fn tfhe_setup() -> Tfhe {
    use tfhe::shortint::parameters::{
        PARAM_KEYSWITCH_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as KS,
        PARAM_PKE_MESSAGE_2_CARRY_2_KS_PBS_TUNIFORM_2M128 as PKE,
    };
    let config = tfhe::ConfigBuilder::default()
        .use_dedicated_compact_public_key_parameters((PKE, KS))
        .build();
    let start = Instant::now();
    let crs = tfhe::zk::CompactPkeCrs::from_config(config, 512).unwrap();
    eprintln!(
        "tfhe CRS generation (512 bits): {:.2} s",
        start.elapsed().as_secs_f64()
    );
    let ck = tfhe::ClientKey::generate(config);
    let sk = tfhe::ServerKey::new(&ck);
    let pk = tfhe::CompactPublicKey::new(&ck);
    Tfhe { ck, sk, pk, crs }
}

fn gpufhe_list(g: &Gpufhe, load: gpufhe::zk::ZkComputeLoad) -> gpufhe::ProvenCompactCiphertextList {
    let mut builder = gpufhe::ProvenCompactCiphertextList::builder(&g.pk);
    builder.extend(VALUES.into_iter());
    builder
        .build_with_proof_packed(&g.crs, METADATA, load)
        .unwrap()
}

fn tfhe_list(t: &Tfhe, load: tfhe::zk::ZkComputeLoad) -> tfhe::ProvenCompactCiphertextList {
    let mut builder = tfhe::ProvenCompactCiphertextList::builder(&t.pk);
    builder.extend(VALUES.into_iter());
    builder
        .build_with_proof_packed(&t.crs, METADATA, load)
        .unwrap()
}

fn gpufhe_verify_and_expand(
    g: &Gpufhe,
    list: &gpufhe::ProvenCompactCiphertextList,
) -> gpufhe::FheUint64 {
    gpufhe::set_server_key(g.sk.clone());
    let expander = list.verify_and_expand(&g.crs, &g.pk, METADATA).unwrap();
    expander.get(7).unwrap().unwrap()
}

/// Value 7 of `list`, verified and expanded with the thread's server key.
fn tfhe_expand_7(t: &Tfhe, list: &tfhe::ProvenCompactCiphertextList) -> tfhe::FheUint64 {
    use tfhe::prelude::CiphertextList as _;
    let expander = list.verify_and_expand(&t.crs, &t.pk, METADATA).unwrap();
    expander.get(7).unwrap().unwrap()
}

fn tfhe_verify_and_expand(t: &Tfhe, list: &tfhe::ProvenCompactCiphertextList) -> tfhe::FheUint64 {
    use tfhe::prelude::CiphertextList as _;
    tfhe::set_server_key(t.sk.clone());
    let expander = list.verify_and_expand(&t.crs, &t.pk, METADATA).unwrap();
    expander.get(7).unwrap().unwrap()
}

/// Value 7 of each list, by gpufhe's batch API (the thread's server key set).
fn gpufhe_batch(
    g: &Gpufhe,
    lists: &[gpufhe::ProvenCompactCiphertextList],
) -> Vec<gpufhe::FheUint64> {
    gpufhe::ProvenCompactCiphertextList::verify_and_expand_batch(lists, &g.crs, &g.pk, METADATA)
        .into_iter()
        .map(|out| out.unwrap().get(7).unwrap().unwrap())
        .collect()
}

fn bench(c: &mut Criterion) {
    let g = gpufhe_setup();
    let t = tfhe_setup();
    let loads = [
        (
            "proof",
            gpufhe::zk::ZkComputeLoad::Proof,
            tfhe::zk::ZkComputeLoad::Proof,
        ),
        (
            "verify",
            gpufhe::zk::ZkComputeLoad::Verify,
            tfhe::zk::ZkComputeLoad::Verify,
        ),
    ];
    let (gpufhe_proven, tfhe_proven) = (gpufhe_list(&g, loads[0].1), tfhe_list(&t, loads[0].2));
    // Checked once: each crate's list verifies and decrypts, alone and in a batch.
    {
        use gpufhe::prelude::FheDecrypt as _;
        let x: u64 = gpufhe_verify_and_expand(&g, &gpufhe_proven).decrypt(&g.ck);
        assert_eq!(x, VALUES[7]);
        gpufhe::set_server_key(g.sk.clone());
        let lists = [gpufhe_proven.clone(), gpufhe_proven.clone()];
        for out in gpufhe_batch(&g, &lists) {
            let x: u64 = out.decrypt(&g.ck);
            assert_eq!(x, VALUES[7]);
        }
    }
    {
        use tfhe::prelude::FheDecrypt as _;
        let x: u64 = tfhe_verify_and_expand(&t, &tfhe_proven).decrypt(&t.ck);
        assert_eq!(x, VALUES[7]);
    }
    let mut group = c.benchmark_group("zk");
    // Each iteration takes seconds: the fewest criterion allows (one warm-up
    // iteration, 10 samples of one iteration).
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(1))
        .measurement_time(Duration::from_millis(1));

    // The batch: the same proven list `n` times (verification does all its work
    // for each copy), gpufhe's batch API against TFHE-rs's best equivalent (a
    // `par_iter` of `verify_and_expand`), then the same `par_iter` on gpufhe.
    let n = batch_size();
    let gpufhe_lists = vec![gpufhe_proven.clone(); n];
    let tfhe_lists = vec![tfhe_proven.clone(); n];
    group.throughput(Throughput::Elements(n as u64));
    gpufhe::set_server_key(g.sk.clone());
    group.bench_function(
        format!("verify_and_expand/{n}x8xFheUint64/gpufhe-batch"),
        |b| b.iter(|| black_box(gpufhe_batch(&g, &gpufhe_lists))),
    );
    // TFHE-rs's verification waits on its own thread pool, and its rayon worker
    // steals other lists meanwhile, while it holds the thread's server key: a
    // `set_server_key` in the task then panics ("RefCell already borrowed"). So
    // the key is set once on every worker, and the tasks only verify and expand.
    rayon::broadcast(|_| tfhe::set_server_key(t.sk.clone()));
    group.bench_function(
        format!("verify_and_expand/{n}x8xFheUint64/tfhe-par_iter"),
        |b| {
            b.iter(|| {
                let out: Vec<_> = tfhe_lists
                    .par_iter()
                    .map(|l| tfhe_expand_7(&t, l))
                    .collect();
                black_box(out)
            })
        },
    );

    group.throughput(Throughput::Elements(1));
    for (name, gl, tl) in loads {
        group.bench_function(format!("prove/8xFheUint64/{name}/gpufhe"), |b| {
            b.iter(|| black_box(gpufhe_list(&g, gl)))
        });
        group.bench_function(format!("prove/8xFheUint64/{name}/tfhe"), |b| {
            b.iter(|| black_box(tfhe_list(&t, tl)))
        });
        let (gpufhe_proven, tfhe_proven) = (gpufhe_list(&g, gl), tfhe_list(&t, tl));
        group.bench_function(format!("verify/8xFheUint64/{name}/gpufhe"), |b| {
            b.iter(|| assert!(gpufhe_proven.verify(&g.crs, &g.pk, METADATA).is_valid()))
        });
        group.bench_function(format!("verify/8xFheUint64/{name}/tfhe"), |b| {
            b.iter(|| assert!(tfhe_proven.verify(&t.crs, &t.pk, METADATA).is_valid()))
        });
    }
    group.bench_function("verify_and_expand/1x8xFheUint64/gpufhe", |b| {
        b.iter(|| black_box(gpufhe_verify_and_expand(&g, &gpufhe_proven)))
    });
    group.bench_function("verify_and_expand/1x8xFheUint64/tfhe", |b| {
        b.iter(|| black_box(tfhe_verify_and_expand(&t, &tfhe_proven)))
    });

    group.throughput(Throughput::Elements(n as u64));
    group.bench_function(
        format!("verify_and_expand/{n}x8xFheUint64/gpufhe-par_iter"),
        |b| {
            b.iter(|| {
                let out: Vec<_> = gpufhe_lists
                    .par_iter()
                    .map(|l| gpufhe_verify_and_expand(&g, l))
                    .collect();
                black_box(out)
            })
        },
    );
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
