//! The memory budget (`gpufhe::memory`): inputs that expand past the memory of the
//! machine are an `Err` naming the need and the limit, never an abort. The crafted
//! inputs of the hostile-input probe (issue 26, findings 1 and 2) run in child
//! processes under an address-space limit (`ulimit -v`), so that a missing check
//! would abort the child, not exhaust this machine.

use crate::child::{self, test_path};
use crate::crafted;
use crate::params::small_parameters;
use gpufhe::memory::{set_memory_limit, MemoryLimit, ENV_MEMORY_LIMIT};
use gpufhe::prelude::*;
use gpufhe::serialization::{
    safe_deserialize, safe_deserialize_conformant, safe_deserialize_default, safe_serialize,
    SafeSerialization,
};
use gpufhe::{
    ClientKey, CompactCiphertextList, CompactPublicKey, CompressedServerKey, ConfigBuilder, Error,
    FheUint64, FheUint8,
};

const LIMIT: u64 = 1 << 30;

/// A client key of the insecure test parameters (no server key) and its public key.
fn small_keys() -> (ClientKey, CompactPublicKey) {
    let config = ConfigBuilder::default()
        .with_insecure_custom_parameters(small_parameters())
        .unwrap();
    let client_key = ClientKey::generate(config);
    let public_key = CompactPublicKey::new(&client_key);
    (client_key, public_key)
}

fn is_out_of_memory(e: &Error) -> bool {
    matches!(e, Error::OutOfMemory(_))
}

#[test]
fn a_compact_list_expanding_past_the_machine_is_an_err_not_an_abort() {
    // Finding 1: a 4.2 MB list on the default parameters (8,256 FheUint64) reads
    // conformant with the default size limit and expands to 4.3 GB. In a child
    // that can map 2 GiB, expanding is an Err and a small list still expands.
    let test = test_path!("a_compact_list_expanding_past_the_machine_is_an_err_not_an_abort");
    if !child::run_alone_limited(&test, &[], Some(2 << 10)) {
        return;
    }
    let client_key = ClientKey::generate(ConfigBuilder::default());
    let public_key = CompactPublicKey::new(&client_key);
    let mut builder = CompactCiphertextList::builder(&public_key);
    for i in 0..8_256u64 {
        builder.push(i);
    }
    let list = builder.build();
    let mut bytes = Vec::new();
    safe_serialize(&list, &mut bytes, LIMIT).unwrap();
    assert!(
        bytes.len() > 4_000_000 && bytes.len() < 4_500_000,
        "{}",
        bytes.len()
    );
    assert!(list.expanded_bytes() > 4 << 30, "{}", list.expanded_bytes());

    let read: CompactCiphertextList = safe_deserialize_conformant(
        bytes.as_slice(),
        CompactCiphertextList::DEFAULT_SIZE_LIMIT,
        &(&client_key).into(),
    )
    .unwrap();
    let err = read.expand().unwrap_err();
    assert!(is_out_of_memory(&err), "{err}");
    let text = err.to_string();
    assert!(text.contains("expanding a compact list needs"), "{text}");
    assert!(
        text.contains("memory limit") && text.contains(ENV_MEMORY_LIMIT),
        "{text}"
    );
    // The default reader refuses it before anything expands.
    let err = safe_deserialize_default::<CompactCiphertextList>(bytes.as_slice()).unwrap_err();
    assert!(err.to_string().contains("expands to"), "{err}");

    let mut small = CompactCiphertextList::builder(&public_key);
    small.push(77u64).push(5u8);
    let values = small.build().expand().unwrap();
    let x: FheUint64 = values.get(0).unwrap().unwrap();
    let y: FheUint8 = values.get(1).unwrap().unwrap();
    assert_eq!(
        (x.decrypt(&client_key), y.decrypt(&client_key)),
        (77u64, 5u8)
    );
}

#[test]
fn the_probes_crafted_inputs_read_and_are_refused_when_expanded() {
    // Findings 1 and 2: a 4.2 MB list on the default parameters (4.3 GB expanded),
    // a 1 MiB list carrying its own N = 2^16 (34 GB), and a compressed key with
    // k = 63, N = 1024, n = 252 and LWE noise TUniform(61), just above the 128-bit
    // curve, that passes the bounds and the security floor (132 MB, 17 GB).
    let test = test_path!("the_probes_crafted_inputs_read_and_are_refused_when_expanded");
    if !child::run_alone_limited(&test, &[], Some(2 << 10)) {
        return;
    }
    assert!(crafted::huge_key_parameters().check_security().is_ok());
    for name in crafted::NAMES {
        let bytes = crafted::crafted(name).unwrap();
        let default_read = |e: Error| assert!(e.to_string().contains("expands to"), "{name}: {e}");
        let refused = |e: Error, what: &str| {
            assert!(is_out_of_memory(&e), "{name}: {e}");
            assert!(
                e.to_string().contains(&format!("{what} needs")),
                "{name}: {e}"
            );
        };
        if name.contains("key") {
            let key: CompressedServerKey = safe_deserialize(bytes.as_slice(), LIMIT).unwrap();
            assert!(
                key.expanded_bytes() > 16_000_000_000,
                "{}",
                key.expanded_bytes()
            );
            refused(
                key.try_decompress().unwrap_err(),
                "decompressing a server key",
            );
            // No GPU here, or the host expansion refused first: never an abort.
            assert!(key.try_decompress_to_gpu().is_err());
            default_read(safe_deserialize_default::<CompressedServerKey>(&bytes[..]).unwrap_err());
        } else {
            let list: CompactCiphertextList = safe_deserialize(bytes.as_slice(), LIMIT).unwrap();
            assert!(list.expanded_bytes() > 4 << 30, "{}", list.expanded_bytes());
            refused(list.expand().unwrap_err(), "expanding a compact list");
            default_read(
                safe_deserialize_default::<CompactCiphertextList>(&bytes[..]).unwrap_err(),
            );
        }
    }
}

#[test]
fn the_memory_limit_is_set_by_the_variable_and_in_code() {
    let test = test_path!("the_memory_limit_is_set_by_the_variable_and_in_code");
    if !child::run_alone_with(&test, &[(ENV_MEMORY_LIMIT, "1M")]) {
        return;
    }
    let (client_key, public_key) = small_keys();
    let mut builder = CompactCiphertextList::builder(&public_key);
    for i in 0..64u64 {
        builder.push(1234 + i);
    }
    let list = builder.build();
    assert!(list.expanded_bytes() > 1 << 20);
    // 1 MiB from the variable: the error names it and the limit.
    let text = list.expand().unwrap_err().to_string();
    assert!(text.contains("limit of 1048576 bytes"), "{text}");
    // Code wins, until it lets go.
    set_memory_limit(MemoryLimit::Bytes(1 << 30));
    let x: FheUint64 = list.expand().unwrap().get(0).unwrap().unwrap();
    let clear: u64 = x.decrypt(&client_key);
    assert_eq!(clear, 1234);
    set_memory_limit(None);
    assert!(list.expand().is_err());
    // Keys too: generating one needs more than 1 MiB.
    assert!(is_out_of_memory(
        &CompressedServerKey::try_new(&client_key).unwrap_err()
    ));
}

#[test]
fn an_invalid_memory_limit_is_an_err_naming_the_variable() {
    let test = test_path!("an_invalid_memory_limit_is_an_err_naming_the_variable");
    if !child::run_alone_with(&test, &[(ENV_MEMORY_LIMIT, "lots")]) {
        return;
    }
    let (client_key, public_key) = small_keys();
    let err = CompressedServerKey::try_new(&client_key).unwrap_err();
    let text = err.to_string();
    assert!(
        text.starts_with(r#"GPUFHE_MEMORY_LIMIT="lots" is invalid"#),
        "{text}"
    );
    let mut builder = CompactCiphertextList::builder(&public_key);
    builder.push(1u8);
    assert!(matches!(
        builder.try_build(),
        Err(Error::InvalidConfiguration { .. })
    ));
}

#[test]
fn concurrent_expansions_share_one_budget_and_never_abort() {
    // Issue 40, finding 2: four threads each expanding a 1.3 MB list of the default
    // parameters (1.3 GB each, within the budget alone) aborted a process that can
    // map 4 GiB. The budget is the process's: threads of their own wait for room,
    // rayon workers (which must not wait) get Err(OutOfMemory); none aborts.
    let test = test_path!("concurrent_expansions_share_one_budget_and_never_abort");
    if !child::run_alone_limited(&test, &[], Some(4 << 10)) {
        return;
    }
    let client_key = ClientKey::generate(ConfigBuilder::default());
    let public_key = CompactPublicKey::new(&client_key);
    let mut builder = CompactCiphertextList::builder(&public_key);
    for i in 0..2_500u64 {
        builder.push(i * 3);
    }
    let list = builder.build();
    let expanded = list.expanded_bytes();
    assert!((1 << 30..3 << 29).contains(&expanded), "{expanded}");
    let expand_one = |index: usize| -> Result<u64, Error> {
        let values = list.expand()?;
        let x: FheUint64 = values.get(index).unwrap().unwrap();
        Ok(x.decrypt(&client_key))
    };
    let check = |results: Vec<Result<u64, Error>>, all: bool| {
        let mut expanded_ok = 0;
        for (t, result) in results.into_iter().enumerate() {
            match result {
                Ok(clear) => {
                    assert_eq!(clear, 1800 * t as u64, "thread {t}");
                    expanded_ok += 1;
                }
                Err(e) => assert!(!all && is_out_of_memory(&e), "thread {t}: {e}"),
            }
        }
        assert!(expanded_ok >= 1);
        assert_eq!(gpufhe::memory::reserved_host_memory(), 0);
    };
    let on_threads = || {
        std::thread::scope(|s| {
            let threads: Vec<_> = (0..4)
                .map(|t| s.spawn(move || expand_one(600 * t)))
                .collect();
            threads.into_iter().map(|t| t.join().unwrap()).collect()
        })
    };

    // A budget of 2 GiB, one expansion at a time: threads of their own wait for
    // the one before to give its share back, and all four expand.
    set_memory_limit(MemoryLimit::Bytes(2 << 30));
    check(on_threads(), true);
    // The default budget, 75 % of what the process can still map: some may be
    // refused (the values of the others still take room), none aborts.
    set_memory_limit(None);
    check(on_threads(), false);
    // Rayon workers: each expands or is refused at once, none waits on another.
    use rayon::prelude::*;
    let results = (0..4usize)
        .into_par_iter()
        .map(|t| expand_one(600 * t))
        .collect();
    check(results, false);
}
