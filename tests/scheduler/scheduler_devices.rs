//! `Devices`, PyTorch Lightning's device grammar: every spelling of every row of
//! Lightning's table resolved against four visible GPUs, every refusal and what it
//! says, the canonical text, and the choice of usable GPUs from probes. No GPU is
//! needed: resolving and choosing are pure functions.

use gpufhe::scheduler::{select_usable, Devices, GpuProbe};
use gpufhe::{Error, GpuIndex, GpuSelection};

const VISIBLE: u32 = 4;

fn gpus(indices: &[u32]) -> Vec<GpuIndex> {
    indices.iter().copied().map(GpuIndex::new).collect()
}

fn parse(text: &str) -> Devices {
    text.parse()
        .unwrap_or_else(|e| panic!("{text:?} should parse: {e}"))
}

/// Every spelling resolves to `expected` with four GPUs, and all spellings are equal.
fn check_row(spellings: Vec<Devices>, expected: &[u32]) {
    let first = spellings[0].clone();
    for devices in spellings {
        assert_eq!(
            devices.resolve(VISIBLE).unwrap(),
            gpus(expected),
            "{devices:?}"
        );
        assert_eq!(devices, first, "{devices:?} and {first:?} mean the same");
    }
}

#[test]
fn a_count_is_the_first_gpus() {
    check_row(
        vec![
            Devices::from(3),
            Devices::from(3u32),
            Devices::first(3),
            parse("3"),
            parse(" 3 "),
            parse("+3"),
            Devices::from("3"),
            Devices::from(String::from("3")),
        ],
        &[0, 1, 2],
    );
    check_row(vec![Devices::from(1), parse("1")], &[0]);
    check_row(vec![Devices::from(4), parse("4")], &[0, 1, 2, 3]);
}

#[test]
fn minus_one_and_auto_are_every_visible_gpu() {
    check_row(
        vec![
            Devices::from(-1),
            Devices::all(),
            Devices::default(),
            parse("-1"),
            parse("auto"),
            parse("AUTO"),
            parse("  Auto\n"),
        ],
        &[0, 1, 2, 3],
    );
    // On a machine without GPUs, "every GPU" is none: the CPU only, not an error.
    assert_eq!(Devices::all().resolve(0).unwrap(), []);
    assert_eq!(parse("auto").resolve(1).unwrap(), gpus(&[0]));
}

#[test]
fn lists_are_those_gpus_in_order() {
    check_row(
        vec![
            Devices::from([1u32, 3]),
            Devices::from(vec![1u32, 3]),
            Devices::from(&[1u32, 3][..]),
            Devices::from([GpuIndex::new(1), GpuIndex::new(3)]),
            Devices::from(gpus(&[1, 3])),
            Devices::from(gpus(&[1, 3]).as_slice()),
            Devices::from(GpuSelection::from(gpus(&[1, 3]))),
            parse("1, 3"),
            parse("1,3"),
            parse(" 1 ,3 "),
            parse("1, 3,"),
            parse("[1, 3]"),
            parse("[1,3]"),
            parse(" [ 1 , 3 ] "),
            parse("[1, 3,]"),
        ],
        &[1, 3],
    );
    check_row(vec![Devices::from([3u32, 0]), parse("3, 0")], &[3, 0]);
    check_row(
        vec![
            Devices::from([0u32]),
            Devices::from(GpuIndex::new(0)),
            parse("[0]"),
            parse("0,"),
        ],
        &[0],
    );
}

#[test]
fn a_trailing_comma_is_one_gpu() {
    check_row(
        vec![
            parse("3,"),
            parse(" 3 , "),
            parse("[3]"),
            Devices::from([3u32]),
            Devices::from(GpuIndex::new(3)),
            Devices::from(GpuSelection::from(GpuIndex::new(3))),
        ],
        &[3],
    );
    // "3" is three GPUs, "3," is GPU 3.
    assert_ne!(parse("3"), parse("3,"));
}

#[test]
fn zero_and_cpu_are_no_gpu() {
    check_row(
        vec![
            Devices::from(0),
            Devices::from(0u32),
            Devices::first(0),
            Devices::cpu(),
            parse("0"),
            parse("cpu"),
            parse("CPU"),
            parse(" Cpu "),
        ],
        &[],
    );
    assert_eq!(Devices::cpu().resolve(0).unwrap(), []);
}

/// `Err` of `devices` with four GPUs, checked to be of kind `kind` and to contain
/// every piece of `says`.
fn refusal(devices: &Devices, visible: u32, says: &[&str]) -> Error {
    let err = devices
        .resolve(visible)
        .expect_err(&format!("{devices:?} should be refused"));
    let text = err.to_string();
    for piece in says {
        assert!(text.contains(piece), "{text:?} should say {piece:?}");
    }
    err
}

#[test]
fn duplicates_are_refused() {
    for devices in [parse("1, 1"), Devices::from([1u32, 1]), parse("[0, 1, 1]")] {
        let err = refusal(&devices, VISIBLE, &["GPU 1 is listed twice", "devices "]);
        assert!(matches!(err, Error::InvalidParameter(_)), "{err:?}");
    }
    let err = refusal(&Devices::from([2u32, 0, 2]), VISIBLE, &["devices 2,0,2"]);
    assert!(err.to_string().contains("GPU 2 is listed twice"), "{err}");
}

#[test]
fn indices_out_of_range_name_the_index_and_the_visible_count() {
    let err = refusal(
        &parse("1, 5"),
        VISIBLE,
        &[
            "devices 1,5",
            "GPU 5 requested",
            "4 GPU(s) are visible",
            "GPU 0 to GPU 3",
        ],
    );
    assert!(matches!(err, Error::NoCudaDevice(_)), "{err:?}");
    refusal(
        &parse("4,"),
        VISIBLE,
        &["GPU 4 requested", "4 GPU(s) are visible"],
    );
    refusal(
        &Devices::from([u32::MAX]),
        VISIBLE,
        &["GPU 4294967295 requested"],
    );
    refusal(
        &parse("0,"),
        0,
        &["GPU 0 requested", "0 GPU(s) are visible"],
    );
}

#[test]
fn more_gpus_than_visible_is_refused() {
    let err = refusal(
        &Devices::from(5),
        2,
        &["devices 5", "5 GPUs requested, but 2 are visible"],
    );
    assert!(matches!(err, Error::NoCudaDevice(_)), "{err:?}");
    refusal(&parse("1"), 0, &["1 GPU requested, but 0 are visible"]);
    assert!(Devices::from(4).resolve(4).is_ok());
}

#[test]
fn negative_counts_other_than_minus_one_are_refused() {
    for devices in [Devices::from(-2), parse("-2"), parse(" -2 ")] {
        let err = refusal(&devices, VISIBLE, &["devices -2", "negative", "-1"]);
        assert!(matches!(err, Error::InvalidParameter(_)), "{err:?}");
    }
    refusal(
        &Devices::from(i32::MIN),
        VISIBLE,
        &["-2147483648", "negative"],
    );
}

#[test]
fn empty_lists_are_refused() {
    for devices in [
        Devices::from(Vec::<u32>::new()),
        Devices::from(&[][..] as &[u32]),
        Devices::from([0u32; 0]),
        Devices::from(Vec::<GpuIndex>::new()),
        Devices::from([] as [GpuIndex; 0]),
        parse("[]"),
        parse("[ ]"),
    ] {
        let err = refusal(&devices, VISIBLE, &["empty", "\"cpu\""]);
        assert!(matches!(err, Error::InvalidParameter(_)), "{err:?}");
    }
}

#[test]
fn text_outside_the_grammar_is_refused_with_what_is_accepted() {
    let cases = [
        ("", "it is empty"),
        ("   ", "it is empty"),
        ("two", "\"two\" is neither a number nor a list"),
        ("all", "neither a number nor a list"),
        ("1.5", "neither a number nor a list"),
        ("1;3", "neither a number nor a list"),
        ("1,,3", "a comma with no GPU index before it"),
        (",", "a comma with no GPU index before it"),
        (",3", "a comma with no GPU index before it"),
        ("[1, 3", "no matching ']'"),
        ("[1, x]", "\"x\" is not a GPU index"),
        ("1, -3", "GPU index -3 is negative"),
        ("-1,", "GPU index -1 is negative"),
        ("1, 4294967296", "GPU index 4294967296 is too large"),
        ("4294967296", "4294967296 GPUs is more than there can be"),
        ("99999999999999999999", "neither a number nor a list"),
    ];
    for (text, why) in cases {
        let err = text
            .parse::<Devices>()
            .expect_err(&format!("{text:?} should not parse"));
        assert!(matches!(err, Error::InvalidParameter(_)), "{err:?}");
        let message = err.to_string();
        for piece in [
            &format!("devices {text:?} cannot be read"),
            why,
            "expected a count (3: the first three GPUs)",
            "-1 or auto",
            "0 or cpu",
            "\"3,\"",
        ] {
            assert!(message.contains(piece), "{message:?} should say {piece:?}");
        }
        // The infallible conversion keeps the text, and resolving reports the same.
        let kept = Devices::from(text);
        assert_eq!(kept.to_string(), text);
        assert_eq!(kept.resolve(VISIBLE).unwrap_err(), err);
    }
}

#[test]
fn display_is_canonical_and_parses_back() {
    let canonical = [
        (Devices::all(), "-1"),
        (parse("auto"), "-1"),
        (Devices::cpu(), "cpu"),
        (parse("0"), "cpu"),
        (Devices::from(3), "3"),
        (parse("[1, 3]"), "1,3"),
        (parse(" 1 , 3 , "), "1,3"),
        (Devices::from([3u32]), "3,"),
        (parse("[3]"), "3,"),
        (Devices::from(Vec::<u32>::new()), "[]"),
        (Devices::from(-2), "-2"),
        (Devices::from([2u32, 0, 2]), "2,0,2"),
    ];
    for (devices, text) in canonical {
        assert_eq!(devices.to_string(), text, "{devices:?}");
        assert_eq!(parse(text), devices, "{text:?} parses back");
    }
    for text in [
        "3", "-1", "auto", "cpu", "0", "1, 3", "[1, 3]", "3,", "[]", "-7", "0,2,1",
    ] {
        let devices = parse(text);
        assert_eq!(parse(&devices.to_string()), devices, "{text:?}");
    }
}

const GIB: u64 = 1 << 30;

fn idle(gpu: u32, free_gib: u64) -> GpuProbe {
    GpuProbe::usable(GpuIndex::new(gpu), free_gib * GIB, 80 * GIB)
}

#[test]
fn select_usable_prefers_free_memory_and_skips_unusable_gpus() {
    let probes = [
        idle(0, 10),
        idle(1, 70),
        GpuProbe::unusable(GpuIndex::new(2), 80 * GIB, "held by another process"),
        idle(3, 70),
        idle(4, 30),
        // Unusable whatever its memory says.
        GpuProbe {
            free_bytes: 80 * GIB,
            ..GpuProbe::unusable(GpuIndex::new(5), 80 * GIB, "compute mode prohibited")
        },
    ];
    assert_eq!(select_usable(0, &probes).unwrap(), []);
    assert_eq!(select_usable(1, &probes).unwrap(), gpus(&[1]));
    // Equal free memory: the lower index first.
    assert_eq!(select_usable(2, &probes).unwrap(), gpus(&[1, 3]));
    assert_eq!(select_usable(3, &probes).unwrap(), gpus(&[1, 3, 4]));
    assert_eq!(select_usable(4, &probes).unwrap(), gpus(&[1, 3, 4, 0]));
    // Probe order does not matter.
    let mut reversed = probes.clone();
    reversed.reverse();
    assert_eq!(select_usable(4, &reversed).unwrap(), gpus(&[1, 3, 4, 0]));
}

#[test]
fn select_usable_says_how_many_are_usable_and_why_not_the_others() {
    let probes = [
        idle(0, 10),
        GpuProbe::unusable(GpuIndex::new(1), 80 * GIB, "held by another process"),
        GpuProbe::unusable(GpuIndex::new(2), 80 * GIB, "compute mode prohibited"),
    ];
    let err = select_usable(2, &probes).unwrap_err();
    assert!(matches!(err, Error::NoCudaDevice(_)), "{err:?}");
    let text = err.to_string();
    for piece in [
        "2 GPUs requested, but only 1 of the 3 visible GPUs are usable",
        "GPU 1: held by another process",
        "GPU 2: compute mode prohibited",
    ] {
        assert!(text.contains(piece), "{text:?} should say {piece:?}");
    }
    let err = select_usable(1, &[]).unwrap_err();
    assert!(
        err.to_string()
            .contains("1 GPU requested, but only 0 of the 0 visible GPUs are usable"),
        "{err}"
    );
}

#[test]
fn auto_selecting_no_gpu_is_the_cpu() {
    assert_eq!(Devices::auto_select(0).unwrap(), Devices::cpu());
}

#[test]
fn probes_say_whether_a_gpu_is_usable() {
    let probe = GpuProbe::usable(GpuIndex::new(1), 3, 5);
    assert!(probe.is_usable());
    assert_eq!((probe.free_bytes, probe.total_bytes), (3, 5));
    let probe = GpuProbe::unusable(GpuIndex::new(1), 5, "busy");
    assert!(!probe.is_usable());
    assert_eq!(probe.unusable.as_deref(), Some("busy"));
    assert_eq!(probe.free_bytes, 0);
}
