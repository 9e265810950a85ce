//! A server fed hostile bytes: each finding of the hostile-input review is a
//! regression test here. Values forged with another parameter set, absurd or
//! insecure parameters, fields set to extremes and requests for more memory than
//! the host has all give an `Err`, never a panic or an abort.

use crate::child::{self, test_path};
use crate::common;
use crate::params;

use common::{keys, setup};
use gpufhe::prelude::*;
use gpufhe::serialization::{
    safe_deserialize, safe_deserialize_default, safe_serialize, with_insecure_parameters_allowed,
    SafeSerialization,
};
use gpufhe::shortint::{ShortintParameters, DEFAULT_PARAMETERS};
use gpufhe::{ClientKey, CompressedServerKey, Config, ConfigBuilder, FheBool, FheUint8, ServerKey};
use params::small_parameters;
use std::panic::{catch_unwind, AssertUnwindSafe};

const LIMIT: u64 = 1 << 30;

fn to_bytes<T: SafeSerialization>(value: &T) -> Vec<u8> {
    let mut bytes = Vec::new();
    safe_serialize(value, &mut bytes, LIMIT).expect("serializes");
    bytes
}

/// A client key of the insecure test parameters (fast: no server key).
fn small_client_key() -> ClientKey {
    let config = ConfigBuilder::default()
        .with_insecure_custom_parameters(small_parameters())
        .unwrap();
    ClientKey::generate(config)
}

/// `bytes` with the first occurrence of `from` (after the header) replaced by `to`.
fn replaced(bytes: &[u8], from: u64, to: u64) -> Vec<u8> {
    let from = from.to_le_bytes();
    let at = (0..bytes.len() - 8)
        .find(|&i| bytes[i..i + 8] == from)
        .expect("the value is in the bytes");
    let mut out = bytes.to_vec();
    out[at..at + 8].copy_from_slice(&to.to_le_bytes());
    out
}

#[test]
fn values_of_other_parameters_forging_the_key_tag_are_errors_before_any_work() {
    // Tags are public: a client may forge the server key's tag on blocks of other
    // parameters. They pass safe_deserialize (nothing there knows the server) and
    // must be rejected by the first operation's input check, not panic in a backend.
    let client_key = setup();
    let other = small_client_key();
    let forge = |bytes: Vec<u8>| replaced(&bytes, other.tag().value(), client_key.tag().value());
    let forged: FheUint8 = safe_deserialize(
        forge(to_bytes(&FheUint8::encrypt(5u8, &other))).as_slice(),
        LIMIT,
    )
    .unwrap();
    assert_eq!(forged.tag(), Some(client_key.tag()));
    let genuine = FheUint8::encrypt(3u8, client_key);
    for result in [
        forged.try_add(&genuine),
        genuine.try_add(&forged),
        forged.try_mul(&genuine),
        forged.try_bitand(&genuine),
        forged.try_add(7u8),
    ] {
        let err = result.expect_err("a value of other parameters is rejected");
        assert!(err.to_string().contains("mismatch"), "{err}");
    }
    assert!(forged.try_eq(&genuine).is_err());
    assert!(FheUint8::batch_add(&[genuine.clone(), forged.clone()], [&genuine, &genuine]).is_err());
    let forged_bool: FheBool = safe_deserialize(
        forge(to_bytes(&FheBool::encrypt(true, &other))).as_slice(),
        LIMIT,
    )
    .unwrap();
    assert!(forged_bool
        .try_and(FheBool::encrypt(true, client_key))
        .is_err());
    // The genuine value still computes.
    let sum: u8 = genuine.try_add(&genuine).unwrap().decrypt(client_key);
    assert_eq!(sum, 6);
}

#[test]
fn the_cpu_backend_rejects_blocks_of_other_parameters() {
    use gpufhe::backend::{cpu::CpuBackend, Backend, BlockExpr, Step, Term};
    use gpufhe::shortint;
    let server_params = small_parameters();
    let mut other_params = server_params;
    other_params.polynomial_size.0 = 256;
    let server_client = shortint::ClientKey::new(server_params).unwrap();
    let other_client = shortint::ClientKey::new(other_params).unwrap();
    let backend = CpuBackend::new(shortint::ServerKey::new(&server_client).unwrap());
    let inputs = vec![
        server_client.encrypt(1).unwrap(),
        other_client.encrypt(2).unwrap(),
    ];
    let sum = BlockExpr {
        terms: vec![
            Term {
                block: 0,
                scalar: 1,
            },
            Term {
                block: 1,
                scalar: 1,
            },
        ],
        constant: 0,
        table: None,
    };
    let step = Step {
        exprs: vec![sum],
        tables: vec![],
    };
    let err = backend.eval(&[&inputs], &step).unwrap_err();
    assert!(err.to_string().contains("LWE size"), "{err}");
}

/// The default configuration's bytes with the `u64` parameter field `field` (0:
/// n, 1: k, 2: N, in declaration order) set to `value`.
fn config_bytes_with(field: usize, value: u64) -> Vec<u8> {
    let mut bytes = to_bytes(&Config::default());
    let at = 8 + 4 + 1 + Config::TYPE_NAME.len() + 8 * field;
    bytes[at..at + 8].copy_from_slice(&value.to_le_bytes());
    bytes
}

#[test]
fn absurd_parameters_are_errors_everywhere_they_enter() {
    // k = 2^14 made a 1 MB compressed key ask for 8.6 GB; k = usize::MAX, n = 2^40
    // crashed key generation; k * N and n + 1 overflowed in validation.
    let mut absurd: Vec<ShortintParameters> = Vec::new();
    for (k, n) in [
        (1 << 14, 918),
        (usize::MAX, 918),
        (1, 1 << 40),
        (1, usize::MAX),
    ] {
        let mut p = DEFAULT_PARAMETERS;
        p.glwe_dimension.0 = k;
        p.lwe_dimension.0 = n;
        absurd.push(p);
    }
    let mut huge_levels = DEFAULT_PARAMETERS;
    huge_levels.pbs_level.0 = 2;
    huge_levels.pbs_base_log.0 = 32;
    huge_levels.glwe_dimension.0 = 64; // k * N = 2^17, but a 127 GB bootstrap key
    absurd.push(huge_levels);
    for p in absurd {
        assert!(p.validate().is_err(), "{p:?}");
        assert!(ConfigBuilder::default()
            .with_insecure_custom_parameters(p)
            .is_err());
        assert!(ConfigBuilder::default()
            .try_use_custom_parameters(p)
            .is_err());
    }
    // A TUniform bound of u32::MAX (found by the config_builder fuzzer: the noise
    // variance overflowed while the security was checked).
    let mut noisy = DEFAULT_PARAMETERS;
    noisy.lwe_noise_distribution = gpufhe::core_crypto::NoiseDistribution::TUniform {
        log2_bound: u32::MAX,
    };
    assert!(ConfigBuilder::default()
        .try_use_custom_parameters(noisy)
        .is_err());
    assert!(noisy.validate().is_err());
    let _ = noisy.check_security(); // an answer, not a panic
    for (field, value) in [
        (1, 1u64 << 14),
        (1, u64::MAX),
        (0, 1 << 40),
        (0, u64::MAX),
        (2, 1 << 20),
    ] {
        let bytes = config_bytes_with(field, value);
        let read =
            with_insecure_parameters_allowed(|| safe_deserialize::<Config>(&bytes[..], LIMIT));
        assert!(read.is_err(), "field {field} = {value} accepted");
    }
}

/// Every 8-byte window of `bytes` holding a small positive integer (a length, a
/// dimension, a count or a parameter: coefficients are almost never that small),
/// set in turn to extreme values: reading must give a clean `Err` or a valid value,
/// never a panic (overflow checks are on in tests).
fn assert_small_fields_survive_extremes<T: SafeSerialization>(bytes: &[u8]) -> usize {
    let mut tried = 0;
    for at in 0..bytes.len() - 8 {
        let v = u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
        if !(1..=1 << 20).contains(&v) {
            continue;
        }
        for extreme in [u64::MAX, u64::MAX / 2 + 2, 1 << 32, 1 << 40, v + 1] {
            let mut forged = bytes.to_vec();
            forged[at..at + 8].copy_from_slice(&extreme.to_le_bytes());
            let outcome = catch_unwind(AssertUnwindSafe(|| {
                with_insecure_parameters_allowed(|| safe_deserialize::<T>(&forged[..], LIMIT))
                    .map(drop)
            }));
            assert!(
                outcome.is_ok(),
                "{}: offset {at} set to {extreme} panicked",
                T::TYPE_NAME
            );
            tried += 1;
        }
    }
    tried
}

#[test]
fn fields_set_to_extremes_never_panic_in_deserialization() {
    let client_key = small_client_key();
    let compressed = CompressedServerKey::new(&client_key);
    let server_key = compressed.decompress();
    let tried = assert_small_fields_survive_extremes::<CompressedServerKey>(&to_bytes(&compressed))
        + assert_small_fields_survive_extremes::<ServerKey>(&to_bytes(&server_key))
        + assert_small_fields_survive_extremes::<ClientKey>(&to_bytes(&client_key))
        + assert_small_fields_survive_extremes::<FheUint8>(&to_bytes(&FheUint8::encrypt(
            9u8,
            &client_key,
        )));
    assert!(tried > 100, "only {tried} forged inputs");
}

#[test]
fn insecure_parameters_need_the_named_path() {
    // A key of the insecure test parameters (security_bits 0, n = 256) is read only
    // inside with_insecure_parameters_allowed.
    let client_key = small_client_key();
    let compressed = CompressedServerKey::new(&client_key);
    let bytes = to_bytes(&compressed);
    let err = safe_deserialize::<CompressedServerKey>(&bytes[..], LIMIT).unwrap_err();
    assert!(err.to_string().contains("insecure"), "{err}");
    assert!(with_insecure_parameters_allowed(|| {
        safe_deserialize::<CompressedServerKey>(&bytes[..], LIMIT)
    })
    .is_ok());
    let bytes = to_bytes(&client_key);
    assert!(safe_deserialize::<ClientKey>(&bytes[..], LIMIT).is_err());
    // The plain serde path is held to the same floor.
    let codec = bincode::config::standard().with_fixed_int_encoding();
    let plain = bincode::serde::encode_to_vec(client_key.config(), codec).unwrap();
    assert!(bincode::serde::decode_from_slice::<Config, _>(&plain, codec).is_err());
    assert!(with_insecure_parameters_allowed(|| {
        bincode::serde::decode_from_slice::<Config, _>(&plain, codec)
    })
    .is_ok());
    // A claim of 0 bits on otherwise default parameters is refused as well, and the
    // scope ends with the closure.
    let mut claimed = DEFAULT_PARAMETERS;
    claimed.security_bits = 0;
    assert!(ConfigBuilder::default()
        .try_use_custom_parameters(claimed)
        .is_err());
    let weak = ConfigBuilder::default()
        .with_insecure_custom_parameters(claimed)
        .unwrap()
        .build();
    assert!(safe_deserialize::<Config>(&to_bytes(&weak)[..], LIMIT).is_err());
    // The defaults pass, also with the default size limit.
    let (_, default_compressed, _) = keys();
    let bytes = to_bytes(default_compressed);
    assert!(safe_deserialize_default::<CompressedServerKey>(&bytes[..]).is_ok());
}

#[test]
fn keys_the_host_cannot_hold_are_errors_not_aborts() {
    // Parameters within the bounds whose server key needs about 7 GiB: under a
    // 3 GiB address-space limit (a child process, `ulimit -v`), generating and
    // decompressing must return Err(OutOfMemory) instead of aborting.
    let mut big = DEFAULT_PARAMETERS;
    big.lwe_dimension.0 = 2048;
    big.glwe_dimension.0 = 4;
    big.polynomial_size.0 = 4096;
    big.pbs_level.0 = 2;
    big.pbs_base_log.0 = 15;
    let bytes = big.server_key_peak_bytes().unwrap();
    assert!(bytes > 6 << 30 && bytes < gpufhe::shortint::MAX_SERVER_KEY_BYTES);
    let test = test_path!("keys_the_host_cannot_hold_are_errors_not_aborts");
    if !child::run_alone_limited(&test, &[], Some(3 << 10)) {
        return;
    }
    let config = ConfigBuilder::default()
        .with_insecure_custom_parameters(big)
        .unwrap();
    let client_key = ClientKey::try_generate(config).unwrap();
    let err = CompressedServerKey::try_new(&client_key).unwrap_err();
    assert!(matches!(err, gpufhe::Error::OutOfMemory(_)), "{err}");
    assert!(matches!(
        ServerKey::try_new(&client_key),
        Err(gpufhe::Error::OutOfMemory(_))
    ));
}

/// Set by the child process of
/// [`a_driver_library_lacking_functions_is_an_error_not_a_panic`].
#[cfg(feature = "gpu")]
const STUB_DRIVER_CHILD: &str = "GPUFHE_TEST_STUB_DRIVER_CHILD";

#[cfg(feature = "gpu")]
#[test]
fn a_driver_library_lacking_functions_is_an_error_not_a_panic() {
    // A libcuda that loads but lacks most functions (a stub, a foreign or too old
    // driver): cudarc would panic on the first missing one; every entry point must
    // instead report no usable GPU.
    if std::env::var_os(STUB_DRIVER_CHILD).is_some() {
        assert_eq!(gpufhe::get_number_of_gpus(), 0);
        let err = gpufhe::backend::cuda::cuda_device_count().unwrap_err();
        assert!(err.to_string().contains("cuLaunchKernelEx"), "{err}");
        assert!(gpufhe::GpuIndex::try_new(0).is_none());
        assert!(gpufhe::backend::cuda::CudaDevice::shared(0).is_err());
        let client_key = small_client_key();
        let compressed = CompressedServerKey::new(&client_key);
        assert!(compressed.try_decompress_to_gpu().is_err());
        assert!(compressed
            .try_decompress_to_specific_gpu(gpufhe::GpuIndex::new(0))
            .is_err());
        return;
    }
    let dir = std::env::temp_dir().join(format!("gpufhe-stub-cuda-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let source = dir.join("stub.c");
    std::fs::write(
        &source,
        "int cuInit(unsigned f) { return 0; }\n\
         int cuDeviceGetCount(int *n) { *n = 1; return 0; }\n\
         int cuDriverGetVersion(int *v) { *v = 13000; return 0; }\n",
    )
    .unwrap();
    let compiler = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let built = std::process::Command::new(&compiler)
        .args(["-shared", "-fPIC", "-o"])
        .arg(dir.join("libcuda.so"))
        .arg(&source)
        .status()
        .unwrap_or_else(|e| panic!("the C compiler {compiler} is needed for this test: {e}"));
    assert!(built.success());
    let output = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            test_path!("a_driver_library_lacking_functions_is_an_error_not_a_panic").as_str(),
            "--exact",
            "--test-threads=1",
        ])
        .env(STUB_DRIVER_CHILD, "1")
        .env("LD_LIBRARY_PATH", &dir)
        .env_remove("GPUFHE_REQUIRE_GPU")
        .env_remove("GPUFHE_FAKE_CUDA")
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && stdout.contains("1 passed"),
        "the child with a stub driver failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn debug_output_holds_no_secret_material() {
    let client_key = small_client_key();
    let shortint_key = client_key.shortint_key();
    for printed in [
        format!("{client_key:?}"),
        format!("{shortint_key:?}"),
        format!(
            "{:?}",
            gpufhe::core_crypto::LweSecretKey::generate_binary(
                gpufhe::core_crypto::LweDimension(64),
                &mut gpufhe::core_crypto::SecretRandomGenerator::from_os().unwrap(),
            )
        ),
    ] {
        // Parameters and a tag at most: no list of key coefficients.
        assert!(printed.contains(".."), "{printed}");
        assert!(
            !printed.contains("[0, 1") && !printed.contains("[1, 0"),
            "{printed}"
        );
    }
}

#[cfg(feature = "gpu")]
#[test]
fn the_driver_functions_checked_are_those_the_fake_driver_implements() {
    // The fake driver implements exactly the functions the crate calls (its GPU
    // tests fail otherwise); the list checked before any call must be the same set,
    // or a real driver lacking one of the others would still panic.
    if !std::env::var("GPUFHE_FAKE_CUDA").is_ok_and(|v| v == "1") {
        crate::skip::report_skipped(format_args!("(not on the fake driver)"));
        return;
    }
    let library = std::env::var("LD_LIBRARY_PATH")
        .unwrap()
        .split(':')
        .map(|dir| std::path::Path::new(dir).join("libcuda.so"))
        .find(|path| path.exists())
        .expect("the fake driver on LD_LIBRARY_PATH");
    let output = std::process::Command::new("nm")
        .args(["-D", "--defined-only"])
        .arg(&library)
        .output()
        .expect("nm (binutils) is needed for this test");
    let exported: std::collections::BTreeSet<String> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| line.split_whitespace().nth(2))
        .filter(|name| name.starts_with("cu"))
        .map(str::to_string)
        .collect();
    let checked: std::collections::BTreeSet<String> = gpufhe::backend::cuda::DRIVER_SYMBOLS
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(exported, checked);
}

#[test]
fn an_invalid_environment_value_is_an_err_wherever_an_err_can_be_returned() {
    // In a child with GPUFHE_CPU_THREADS=lots: the variable is read per call.
    let test = test_path!("an_invalid_environment_value_is_an_err_wherever_an_err_can_be_returned");
    if !child::run_alone_with(&test, &[("GPUFHE_CPU_THREADS", "lots")]) {
        return;
    }
    let client_key = small_client_key();
    let compressed = CompressedServerKey::new(&client_key);
    let names_the_variable = |e: gpufhe::Error| {
        let text = e.to_string();
        assert!(
            text.contains("GPUFHE_CPU_THREADS") && text.contains("lots"),
            "{text}"
        );
    };
    // Fallible: an Err naming the variable (try_decompress warned and went on).
    names_the_variable(compressed.try_decompress().unwrap_err());
    names_the_variable(ServerKey::try_new(&client_key).unwrap_err());
    let bytes = to_bytes(&compressed.decompress());
    let read =
        with_insecure_parameters_allowed(|| safe_deserialize::<ServerKey>(bytes.as_slice(), LIMIT));
    names_the_variable(read.unwrap_err());
    // Infallible (TFHE-rs's signatures): the defaults, after a line on stderr.
    let key = ServerKey::new(&client_key);
    gpufhe::set_server_key(key);
    let x = FheUint8::encrypt(3u8, &client_key);
    assert_eq!(FheDecrypt::<u8>::decrypt(&(&x + &x), &client_key), 6);
}

#[test]
fn seeded_keys_of_different_configurations_have_different_tags() {
    // One seed, two configurations (the same test parameters but the LWE dimension):
    // different secret keys, which must not share a tag, or values of one would be
    // computed on by the other's server key into garbage.
    let config = |lwe_dimension| {
        let mut parameters = small_parameters();
        parameters.lwe_dimension = gpufhe::core_crypto::LweDimension(lwe_dimension);
        ConfigBuilder::default()
            .with_insecure_custom_parameters(parameters)
            .unwrap()
    };
    let a = ClientKey::generate_with_seed(config(256), gpufhe::Seed(42));
    let b = ClientKey::generate_with_seed(config(300), gpufhe::Seed(42));
    assert_ne!(a.tag(), b.tag());
    // The same seed and configuration still give the same key and tag.
    assert_eq!(
        ClientKey::generate_with_seed(config(256), gpufhe::Seed(42)).tag(),
        a.tag()
    );
    let server_b = ServerKey::new(&b);
    gpufhe::set_server_key(server_b);
    let (x, y) = (FheUint8::encrypt(200u8, &a), FheUint8::encrypt(100u8, &a));
    assert!(matches!(
        x.try_add(&y),
        Err(gpufhe::Error::KeyMismatch { .. })
    ));
    let read: gpufhe::Result<u8> = FheUint8::encrypt(1u8, &b).try_decrypt(&a);
    assert!(read.is_err());
}

#[test]
fn a_decomposition_the_arithmetic_cannot_carry_is_refused_everywhere() {
    // base_log 64 (times 1 level = 64 bits) shifted a digit by 64 bits: a panic in
    // a checked build, wrong keyswitches in a release build.
    use gpufhe::core_crypto::{DecompositionBaseLog, DecompositionLevelCount};
    use gpufhe::shortint::{EncryptionKeyChoice, ShortintKeySwitchingParameters};
    use gpufhe::KeySwitchingKey;
    let decomposition = |base_log, level| ShortintKeySwitchingParameters {
        ks_base_log: DecompositionBaseLog(base_log),
        ks_level: DecompositionLevelCount(level),
        destination_key: EncryptionKeyChoice::Big,
    };
    let (client_key, server_key) = crate::insecure_keys::keys();
    let pair = (client_key, server_key);
    for (base_log, level) in [(64, 1), (0, 4), (4, 0), (33, 2)] {
        let refused =
            KeySwitchingKey::try_with_parameters(pair, pair, decomposition(base_log, level));
        assert!(refused.is_err(), "{base_log} x {level}");
        let mut parameters = small_parameters();
        parameters.ks_base_log = DecompositionBaseLog(base_log);
        parameters.ks_level = DecompositionLevelCount(level);
        assert!(ConfigBuilder::default()
            .with_insecure_custom_parameters(parameters)
            .is_err());
        parameters = small_parameters();
        parameters.pbs_base_log = DecompositionBaseLog(base_log);
        parameters.pbs_level = DecompositionLevelCount(level);
        assert!(ConfigBuilder::default()
            .with_insecure_custom_parameters(parameters)
            .is_err());
    }
    // Read: a valid key of 63 x 1 with its base rewritten to 64 is refused.
    let valid = KeySwitchingKey::try_with_parameters(pair, pair, decomposition(63, 1)).unwrap();
    let bytes = with_insecure_parameters_allowed(|| to_bytes(&valid));
    let shape: Vec<u8> = [63u64, 1].iter().flat_map(|v| v.to_le_bytes()).collect();
    let at = bytes
        .windows(16)
        .position(|w| w == shape.as_slice())
        .expect("the key's decomposition is in its bytes");
    let mut crafted = bytes.clone();
    crafted[at..at + 8].copy_from_slice(&64u64.to_le_bytes());
    let read = |bytes: &[u8]| {
        with_insecure_parameters_allowed(|| safe_deserialize::<KeySwitchingKey>(bytes, LIMIT))
    };
    assert!(read(&bytes).is_ok());
    assert!(read(&crafted).is_err());
    // Conformance: of its destination's key set, not of another.
    use gpufhe::serialization::{ConformanceParams, Conformant};
    assert!(valid.conforms_to(&client_key.into()).is_ok());
    let other = ClientKey::generate(*client_key.config());
    let err = valid.conforms_to(&ConformanceParams::from(&other));
    assert!(err.is_err());
}

#[test]
fn empty_arrays_with_axes_whose_product_overflows_are_refused() {
    use gpufhe::{ClearArray, FheUint8Array};
    // 0 × usize::MAX × 2 holds no element, but its strides overflow: slicing it
    // multiplied past usize. Refused when built, as any shape that overflows.
    let huge = vec![0, usize::MAX, 2];
    assert!(FheUint8Array::try_new(vec![], huge.clone()).is_err());
    assert!(ClearArray::<u8>::try_new(vec![], huge.clone()).is_err());
    let mut array = FheUint8Array::try_new(vec![], vec![0, 4]).unwrap();
    assert!(array.reshape(huge).is_err());
    // An empty array with one huge axis has strides that fit: it slices.
    let wide = FheUint8Array::try_new(vec![], vec![0, usize::MAX]).unwrap();
    let sliced = wide.try_slice(&[0..0, 0..usize::MAX]).unwrap();
    assert_eq!(sliced.shape(), &[0, usize::MAX]);
}

#[test]
fn conformance_to_an_unchecked_absurd_configuration_is_false_not_a_panic() {
    use gpufhe::conformance::{ConformanceParams, ParameterSetConformant};
    use gpufhe::serialization::safe_deserialize_conformant;
    let (client_key, _) = crate::insecure_keys::keys();
    let mut absurd = small_parameters();
    absurd.glwe_dimension = gpufhe::core_crypto::GlweDimension(usize::MAX);
    absurd.polynomial_size = gpufhe::core_crypto::PolynomialSize(1 << 16);
    let config = ConfigBuilder::with_custom_parameters(absurd).build();
    let params = ConformanceParams::from(&config);
    let value = FheUint8::encrypt(5u8, client_key);
    assert!(!value.is_conformant(&params));
    assert!(!FheBool::encrypt(true, client_key).is_conformant(&params));
    let compressed = gpufhe::CompressedFheUint8::encrypt(5u8, client_key);
    assert!(!compressed.is_conformant(&params));
    let bytes = with_insecure_parameters_allowed(|| to_bytes(&value));
    let read = with_insecure_parameters_allowed(|| {
        safe_deserialize_conformant::<FheUint8>(bytes.as_slice(), LIMIT, &params)
    });
    assert!(read.is_err());
}

#[test]
fn an_empty_table_or_list_still_checks_the_value_and_the_server_key() {
    use gpufhe::{FheUint16, MatchValues};
    let (client_key, server_key) = crate::insecure_keys::keys();
    let other = small_client_key();
    let empty = MatchValues::<u8>::new(vec![]).unwrap();
    let foreign = FheUint8::encrypt(3u8, &other);
    let ours = FheUint8::encrypt(3u8, client_key);
    // No server key on this thread: an Err, as for every operation.
    let alone = std::thread::spawn(move || {
        let ours = ours;
        let looked_up: gpufhe::Result<(FheUint16, FheBool)> = ours.match_value(&empty);
        (
            looked_up.is_err(),
            FheUint8::try_contains(&[], &ours).is_err(),
        )
    });
    assert_eq!(alone.join().unwrap(), (true, true));
    gpufhe::set_server_key(server_key.clone());
    let empty = MatchValues::<u8>::new(vec![]).unwrap();
    let looked_up: gpufhe::Result<(FheUint16, FheBool)> = foreign.match_value(&empty);
    assert!(matches!(looked_up, Err(gpufhe::Error::KeyMismatch { .. })));
    assert!(FheUint8::try_contains(&[], &foreign).is_err());
    // A value of the key: no entry, no match.
    let (value, found): (FheUint16, FheBool) = FheUint8::encrypt(3u8, client_key)
        .match_value(&empty)
        .unwrap();
    assert_eq!(
        (value.decrypt(client_key), found.decrypt(client_key)),
        (0u16, false)
    );
}

#[test]
fn clears_wider_than_the_selected_value_wrap_as_in_tfhe_rs() {
    // TFHE-rs 1.8.2 gives these (checked with the tfhe crate): the clear's low bits.
    use gpufhe::FheInt8;
    let client_key = crate::insecure_keys::setup();
    let no = FheBool::encrypt(false, client_key);
    let x = FheUint8::encrypt(7u8, client_key);
    let picked: u8 = no.scalar_if_then_else(&x, 300u16).decrypt(client_key);
    assert_eq!(picked, 44);
    let picked: u8 = (!&no).scalar_if_then_else(300u16, &x).decrypt(client_key);
    assert_eq!(picked, 44);
    let (first, second) = no.flip(&x, 300u16);
    let flipped: (u8, u8) = (first.decrypt(client_key), second.decrypt(client_key));
    assert_eq!(flipped, (7, 44));
    let y = FheInt8::encrypt(7i8, client_key);
    let picked: i8 = no.scalar_if_then_else(&y, -200i16).decrypt(client_key);
    assert_eq!(picked, 56);
    let picked: i8 = no.scalar_if_then_else(&y, 200i16).decrypt(client_key);
    assert_eq!(picked, -56);
    let picked: u8 = FheUint8::select(&no, 1u8, 300u16).decrypt(client_key);
    assert_eq!(picked, 44);
    // Comparisons compare the whole clear, as TFHE-rs does.
    assert!(x.lt(300u16).decrypt(client_key));
}
