//! `SchedulerConfig`: every variable read from a map of variables with valid and
//! invalid values, code over environment over defaults, what `Display` prints, and
//! the default CPU thread rule. The process environment is never touched.

use gpufhe::scheduler::*;
use gpufhe::{Error, GpuIndex};
use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::OsString;

/// The configuration from these variables alone.
fn config(vars: &[(&str, &str)]) -> gpufhe::Result<SchedulerConfig> {
    builder_config(SchedulerConfig::builder(), vars)
}

fn builder_config(
    builder: SchedulerConfigBuilder,
    vars: &[(&str, &str)],
) -> gpufhe::Result<SchedulerConfig> {
    let map: HashMap<String, String> = vars
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    builder.build_with(|name| map.get(name).cloned())
}

fn valid(vars: &[(&str, &str)]) -> SchedulerConfig {
    config(vars).unwrap_or_else(|e| panic!("{vars:?} should be valid: {e}"))
}

/// Checks that `variable=value` is refused with an error naming both and saying
/// what is expected (`expected` is part of it).
fn refused(variable: &str, value: &str, expected: &str) {
    let err =
        config(&[(variable, value)]).expect_err(&format!("{variable}={value:?} should be refused"));
    let Error::InvalidConfiguration {
        variable: v,
        value: got,
        expected: e,
    } = &err
    else {
        panic!("{variable}={value:?}: not InvalidConfiguration: {err:?}");
    };
    assert_eq!((v.as_str(), got.as_str()), (variable, value));
    assert!(e.contains(expected), "{e:?} should say {expected:?}");
    let message = err.to_string();
    let start = format!("{variable}={value:?} is invalid: expected ");
    assert!(message.starts_with(&start), "{message:?}");
}

#[test]
fn no_variables_give_the_defaults() {
    let config = valid(&[]);
    assert_eq!(config, SchedulerConfig::default());
    assert_eq!(config.devices(), &Devices::all());
    assert_eq!(config.streams_per_gpu(), 4);
    assert_eq!(config.streams_per_gpu(), DEFAULT_STREAMS_PER_GPU);
    assert_eq!(config.gpu_overprovision(), DEFAULT_GPU_OVERPROVISION);
    assert_eq!(config.workers_per_gpu(), 4);
    assert_eq!(config.max_batch_size(), None);
    assert_eq!(config.cpu_threads(), None);
    assert_eq!(config.device_to_core_ratio(), None);
    for knob in Knob::ALL {
        assert_eq!(config.source(knob), Source::Default, "{knob:?}");
    }
}

#[test]
fn variable_names() {
    let names: Vec<&str> = Knob::ALL.iter().map(|k| k.variable()).collect();
    assert_eq!(
        names,
        [
            "GPUFHE_DEVICES",
            "GPUFHE_STREAMS_PER_GPU",
            "GPUFHE_GPU_OVERPROVISION",
            "GPUFHE_MAX_BATCH_SIZE",
            "GPUFHE_CPU_THREADS",
            "GPUFHE_DEVICE_TO_CORE_RATIO",
        ]
    );
    assert_eq!(
        [
            ENV_DEVICES,
            ENV_STREAMS_PER_GPU,
            ENV_GPU_OVERPROVISION,
            ENV_MAX_BATCH_SIZE,
            ENV_CPU_THREADS,
            ENV_DEVICE_TO_CORE_RATIO
        ],
        names.as_slice()
    );
}

#[test]
fn devices_from_the_environment() {
    let cases = [
        ("0, 1", "0,1", vec![0, 1]),
        ("[1, 3]", "1,3", vec![1, 3]),
        ("3,", "3,", vec![3]),
        ("3", "3", vec![0, 1, 2]),
        ("-1", "-1", vec![0, 1, 2, 3]),
        ("auto", "-1", vec![0, 1, 2, 3]),
        ("  AUTO ", "-1", vec![0, 1, 2, 3]),
        ("0", "cpu", vec![]),
        ("cpu", "cpu", vec![]),
    ];
    for (value, canonical, expected) in cases {
        let config = valid(&[(ENV_DEVICES, value)]);
        assert_eq!(config.devices().to_string(), canonical, "{value:?}");
        assert_eq!(config.source(Knob::Devices), Source::Environment);
        let expected: Vec<GpuIndex> = expected.into_iter().map(GpuIndex::new).collect();
        assert_eq!(config.resolve_devices(4).unwrap(), expected, "{value:?}");
    }
}

#[test]
fn invalid_devices_in_the_environment_are_refused() {
    let grammar = "a count (3: the first three GPUs), -1 or auto";
    for value in [
        "two",
        "1;3",
        "[1, 3",
        "1,,3",
        "1.5",
        "NaN",
        "99999999999999999999",
    ] {
        refused(ENV_DEVICES, value, grammar);
    }
    refused(ENV_DEVICES, "1, 1", "GPU 1 is listed twice");
    refused(ENV_DEVICES, "-2", "negative");
    refused(ENV_DEVICES, "[]", "empty");
}

#[test]
fn devices_that_this_machine_lacks_name_the_variable() {
    let config = valid(&[(ENV_DEVICES, "[0, 5]")]);
    let err = config.resolve_devices(2).unwrap_err();
    assert!(
        matches!(&err, Error::InvalidConfiguration { variable, value, .. }
            if variable == ENV_DEVICES && value == "0,5"),
        "{err:?}"
    );
    assert!(err.to_string().contains("GPU 5 requested"), "{err}");
    // Set in code, the same request is refused as Devices::resolve refuses it.
    let config = SchedulerConfig::builder()
        .devices("0, 5")
        .build_with(no_env)
        .unwrap();
    let err = config.resolve_devices(2).unwrap_err();
    assert_eq!(err, Devices::from([0u32, 5]).resolve(2).unwrap_err());
    assert!(matches!(err, Error::NoCudaDevice(_)), "{err:?}");
    // The default on a machine without GPUs is the CPU, not an error.
    assert_eq!(SchedulerConfig::default().resolve_devices(0).unwrap(), []);
}

fn no_env(_: &str) -> Option<String> {
    None
}

#[test]
fn streams_per_gpu_from_the_environment() {
    for (value, streams) in [("1", 1), ("8", 8), (" 2 ", 2), ("+3", 3), ("1024", 1024)] {
        let config = valid(&[(ENV_STREAMS_PER_GPU, value)]);
        assert_eq!(config.streams_per_gpu(), streams, "{value:?}");
        assert_eq!(config.source(Knob::StreamsPerGpu), Source::Environment);
    }
    let expected =
        "an integer from 1 to 1024 (default 4; more than about 10 streams per GPU hurts)";
    for value in [
        "zero",
        "0",
        "-1",
        "NaN",
        "2.5",
        "1025",
        "99999999999999999999999",
        "4 streams",
    ] {
        refused(ENV_STREAMS_PER_GPU, value, expected);
    }
}

#[test]
fn gpu_overprovision_from_the_environment() {
    let config = valid(&[(ENV_GPU_OVERPROVISION, "2"), (ENV_STREAMS_PER_GPU, "3")]);
    assert_eq!(config.gpu_overprovision(), 2);
    assert_eq!(config.workers_per_gpu(), 6);
    assert_eq!(config.source(Knob::GpuOverprovision), Source::Environment);
    for value in [
        "two",
        "0",
        "-2",
        "NaN",
        "1.5",
        "1025",
        "18446744073709551616",
    ] {
        refused(
            ENV_GPU_OVERPROVISION,
            value,
            "an integer from 1 to 1024 (default 1)",
        );
    }
}

#[test]
fn max_batch_size_from_the_environment() {
    let config = valid(&[(ENV_MAX_BATCH_SIZE, "512")]);
    assert_eq!(config.max_batch_size(), Some(512));
    assert_eq!(config.source(Knob::MaxBatchSize), Source::Environment);
    let config = valid(&[(ENV_MAX_BATCH_SIZE, "18446744073709551615")]);
    assert_eq!(config.max_batch_size(), Some(usize::MAX));
    let expected = "an integer >= 1 (default: sized from free GPU memory)";
    for value in ["none", "0", "-64", "NaN", "6.4e1", "18446744073709551616"] {
        refused(ENV_MAX_BATCH_SIZE, value, expected);
    }
}

#[test]
fn cpu_threads_from_the_environment() {
    let config = valid(&[(ENV_CPU_THREADS, "6")]);
    assert_eq!(config.cpu_threads(), Some(6));
    assert_eq!(config.source(Knob::CpuThreads), Source::Environment);
    // 0 is allowed: no CPU worker beside the GPUs.
    let config = valid(&[(ENV_CPU_THREADS, "0")]);
    assert_eq!(config.cpu_threads(), Some(0));
    assert_eq!(config.cpu_threads_for(2, 32), 0);
    let expected = "an integer from 0 to 1024, 0 for no CPU worker beside the GPUs";
    assert_eq!(
        valid(&[(ENV_CPU_THREADS, "1024")]).cpu_threads(),
        Some(1024)
    );
    // 65536 was accepted, and every operation then tried to start 65,536 threads.
    for value in [
        "all",
        "-1",
        "NaN",
        "1.5",
        "1025",
        "65536",
        "99999999999999999999999",
    ] {
        refused(ENV_CPU_THREADS, value, expected);
    }
}

#[test]
fn device_to_core_ratio_from_the_environment() {
    for (value, ratio) in [("12.5", 12.5), ("8", 8.0), ("1e2", 100.0), ("0.25", 0.25)] {
        let config = valid(&[(ENV_DEVICE_TO_CORE_RATIO, value)]);
        assert_eq!(config.device_to_core_ratio(), Some(ratio), "{value:?}");
        assert_eq!(config.source(Knob::DeviceToCoreRatio), Source::Environment);
    }
    let expected = "a finite number > 0, e.g. 8 or 2.5 (default: measured)";
    for value in [
        "fast", "0", "-0", "-3", "NaN", "nan", "inf", "-inf", "1e999", "1,5",
    ] {
        refused(ENV_DEVICE_TO_CORE_RATIO, value, expected);
    }
}

#[test]
fn empty_values_count_as_unset() {
    for knob in Knob::ALL {
        for value in ["", " ", "\t"] {
            let config = valid(&[(knob.variable(), value)]);
            assert_eq!(config.source(knob), Source::Default, "{knob:?} = {value:?}");
            assert_eq!(config, SchedulerConfig::default());
        }
    }
}

#[cfg(unix)]
#[test]
fn values_that_are_not_utf8_are_refused() {
    use std::os::unix::ffi::OsStringExt;
    for knob in Knob::ALL {
        let err = SchedulerConfig::builder()
            .build_with(|name| {
                (name == knob.variable()).then(|| OsString::from_vec(vec![b'4', 0xff]))
            })
            .unwrap_err();
        let Error::InvalidConfiguration {
            variable,
            value,
            expected,
        } = &err
        else {
            panic!("{err:?}");
        };
        assert_eq!(variable, knob.variable());
        assert_eq!(value, "4\u{fffd}");
        assert!(expected.starts_with("UTF-8 text: "), "{expected}");
    }
}

#[test]
fn code_wins_over_the_environment_which_wins_over_defaults() {
    let env = [
        (ENV_DEVICES, "1, 2"),
        (ENV_STREAMS_PER_GPU, "8"),
        (ENV_GPU_OVERPROVISION, "3"),
        (ENV_MAX_BATCH_SIZE, "64"),
        (ENV_CPU_THREADS, "5"),
        (ENV_DEVICE_TO_CORE_RATIO, "7.5"),
    ];
    let from_env = valid(&env);
    assert_eq!(from_env.devices(), &Devices::from([1u32, 2]));
    assert_eq!(from_env.streams_per_gpu(), 8);
    assert_eq!(from_env.gpu_overprovision(), 3);
    assert_eq!(from_env.max_batch_size(), Some(64));
    assert_eq!(from_env.cpu_threads(), Some(5));
    assert_eq!(from_env.device_to_core_ratio(), Some(7.5));
    for knob in Knob::ALL {
        assert_eq!(from_env.source(knob), Source::Environment, "{knob:?}");
    }

    let builder = SchedulerConfig::builder()
        .devices(0)
        .streams_per_gpu(2)
        .gpu_overprovision(1)
        .max_batch_size(16)
        .cpu_threads(1)
        .device_to_core_ratio(3.0);
    let from_code = builder_config(builder, &env).unwrap();
    assert_eq!(from_code.devices(), &Devices::cpu());
    assert_eq!(from_code.streams_per_gpu(), 2);
    assert_eq!(from_code.gpu_overprovision(), 1);
    assert_eq!(from_code.max_batch_size(), Some(16));
    assert_eq!(from_code.cpu_threads(), Some(1));
    assert_eq!(from_code.device_to_core_ratio(), Some(3.0));
    for knob in Knob::ALL {
        assert_eq!(from_code.source(knob), Source::Code, "{knob:?}");
    }

    // Mixed: each knob on its own.
    let mixed = builder_config(SchedulerConfig::builder().streams_per_gpu(6), &env[..2]).unwrap();
    assert_eq!(mixed.streams_per_gpu(), 6);
    assert_eq!(mixed.source(Knob::StreamsPerGpu), Source::Code);
    assert_eq!(mixed.source(Knob::Devices), Source::Environment);
    assert_eq!(mixed.source(Knob::MaxBatchSize), Source::Default);
}

#[test]
fn code_can_restore_a_default_over_the_environment() {
    let env = [
        (ENV_MAX_BATCH_SIZE, "64"),
        (ENV_CPU_THREADS, "5"),
        (ENV_DEVICE_TO_CORE_RATIO, "7.5"),
    ];
    let builder = SchedulerConfig::builder()
        .max_batch_size(None)
        .cpu_threads(None)
        .device_to_core_ratio(None);
    let config = builder_config(builder, &env).unwrap();
    assert_eq!(config.max_batch_size(), None);
    assert_eq!(config.cpu_threads(), None);
    assert_eq!(config.device_to_core_ratio(), None);
    assert_eq!(config.source(Knob::MaxBatchSize), Source::Code);
    assert!(config
        .to_string()
        .contains("GPUFHE_MAX_BATCH_SIZE = sized from free GPU memory (code)"));
}

#[test]
fn variables_of_settings_set_in_code_are_not_read() {
    let asked = RefCell::new(Vec::new());
    let config = SchedulerConfig::builder()
        .devices("cpu")
        .streams_per_gpu(2)
        .build_with(|name| {
            asked.borrow_mut().push(name.to_string());
            Some("invalid".to_string())
        });
    // Every variable that was read is invalid, so this fails on the first one read...
    let err = config.unwrap_err();
    assert!(
        err.to_string()
            .starts_with("GPUFHE_GPU_OVERPROVISION=\"invalid\""),
        "{err}"
    );
    // ... which is not one of the two set in code.
    assert_eq!(asked.into_inner(), ["GPUFHE_GPU_OVERPROVISION"]);
}

#[test]
fn invalid_values_in_code_are_refused_at_build() {
    let cases: Vec<(SchedulerConfigBuilder, &str)> = vec![
        (
            SchedulerConfig::builder().streams_per_gpu(0),
            "streams_per_gpu(0)",
        ),
        (
            SchedulerConfig::builder().streams_per_gpu(5000),
            "streams_per_gpu(5000)",
        ),
        (
            SchedulerConfig::builder().gpu_overprovision(0),
            "gpu_overprovision(0)",
        ),
        (
            SchedulerConfig::builder().max_batch_size(0),
            "max_batch_size(0)",
        ),
        (
            SchedulerConfig::builder().cpu_threads(70_000),
            "cpu_threads(70000)",
        ),
        (
            SchedulerConfig::builder().device_to_core_ratio(f64::NAN),
            "device_to_core_ratio(NaN)",
        ),
        (
            SchedulerConfig::builder().device_to_core_ratio(f64::INFINITY),
            "device_to_core_ratio(inf)",
        ),
        (
            SchedulerConfig::builder().device_to_core_ratio(0.0),
            "device_to_core_ratio(0.0)",
        ),
        (
            SchedulerConfig::builder().device_to_core_ratio(-2.0),
            "device_to_core_ratio(-2.0)",
        ),
        (
            SchedulerConfig::builder().devices("two"),
            "devices \"two\" cannot be read",
        ),
        (
            SchedulerConfig::builder().devices([1u32, 1]),
            "GPU 1 is listed twice",
        ),
        (SchedulerConfig::builder().devices(-3), "devices -3"),
        (
            SchedulerConfig::builder().devices(Vec::<u32>::new()),
            "empty",
        ),
    ];
    for (builder, says) in cases {
        let err = builder.build_with(no_env).unwrap_err();
        assert!(matches!(err, Error::InvalidParameter(_)), "{err:?}");
        assert!(err.to_string().contains(says), "{err} should say {says:?}");
    }
    // Out of range for this machine is only known when resolved.
    let config = SchedulerConfig::builder()
        .devices("7,")
        .build_with(no_env)
        .unwrap();
    assert!(config.resolve_devices(4).is_err());
}

#[test]
fn display_prints_each_setting_and_its_source() {
    assert_eq!(
        SchedulerConfig::default().to_string(),
        "GPUFHE_DEVICES = -1 (default)\n\
         GPUFHE_STREAMS_PER_GPU = 4 (default)\n\
         GPUFHE_GPU_OVERPROVISION = 1 (default)\n\
         GPUFHE_MAX_BATCH_SIZE = sized from free GPU memory (default)\n\
         GPUFHE_CPU_THREADS = hardware threads - GPUs in use (default)\n\
         GPUFHE_DEVICE_TO_CORE_RATIO = measured (default)"
    );
    let builder = SchedulerConfig::builder()
        .streams_per_gpu(2)
        .cpu_threads(0)
        .device_to_core_ratio(12.5);
    let config = builder_config(
        builder,
        &[(ENV_DEVICES, "[0, 1]"), (ENV_MAX_BATCH_SIZE, "256")],
    );
    assert_eq!(
        config.unwrap().to_string(),
        "GPUFHE_DEVICES = 0,1 (environment)\n\
         GPUFHE_STREAMS_PER_GPU = 2 (code)\n\
         GPUFHE_GPU_OVERPROVISION = 1 (default)\n\
         GPUFHE_MAX_BATCH_SIZE = 256 (environment)\n\
         GPUFHE_CPU_THREADS = 0 (code)\n\
         GPUFHE_DEVICE_TO_CORE_RATIO = 12.5 (code)"
    );
}

#[test]
fn cpu_threads_default_to_hardware_threads_minus_gpus() {
    let default = SchedulerConfig::default();
    for (gpus, hardware, threads) in [
        (0, 16, 16),
        (1, 16, 15),
        (4, 16, 12),
        (8, 8, 1),
        (16, 8, 1),
        (0, 0, 1),
        (0, 1, 1),
    ] {
        assert_eq!(
            default.cpu_threads_for(gpus, hardware),
            threads,
            "{gpus} GPUs, {hardware} threads"
        );
    }
    let six = SchedulerConfig::builder()
        .cpu_threads(6)
        .build_with(no_env)
        .unwrap();
    assert_eq!(six.cpu_threads_for(0, 16), 6);
    assert_eq!(six.cpu_threads_for(4, 2), 6);
    let none = SchedulerConfig::builder()
        .cpu_threads(0)
        .build_with(no_env)
        .unwrap();
    assert_eq!(none.cpu_threads_for(1, 16), 0);
    // No GPU in use: the CPU is the only device and gets the default.
    assert_eq!(none.cpu_threads_for(0, 16), 16);
    assert_eq!(none.cpu_threads_for(0, 0), 1);
}

#[test]
fn sources_print_in_lower_case() {
    assert_eq!(Source::Code.to_string(), "code");
    assert_eq!(Source::Environment.to_string(), "environment");
    assert_eq!(Source::Default.to_string(), "default");
}
