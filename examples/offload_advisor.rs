//! Should this workload go to the GPU? An offload calculator whose inputs are
//! measured, not guessed: it generates keys (default parameters), decompresses the
//! server key to every GPU (or says there is none), calibrates the CPU and each GPU
//! (KS+PBS times at a few batch sizes, host-GPU copies) and installs the calibration
//! in the key (`ServerKey::use_calibration`), then prints what a few workloads cost
//! on the CPU and on the GPUs and how the scheduler would split them, read from the
//! key's own cost model (`ServerKey::cost_model`, the one its dispatcher splits
//! batches with), and draws the predicted time of a batch against its size
//! (log-log) as an SVG chart.
//!
//! Without a GPU the advice is for the CPU only, followed by what one H100 SXM
//! would do: every GPU figure that was not measured on a GPU says "modelled".
//!
//! ```text
//! cargo run --release --example offload_advisor
//! cargo run --release --example offload_advisor -- --calibration calibration.bin --svg chart.svg
//! ```
//!
//! `--calibration PATH` reads a calibration written by an earlier run (if it was
//! measured for these parameters and GPUs) instead of measuring, and writes the
//! new one otherwise. `--svg PATH` (default `offload_advisor.svg`) is the chart.
//! `--batch-sizes 1,64,512,4096` (the default) are the GPU batch sizes timed.

use gpufhe::integer::{BinaryOp, CmpOp};
use gpufhe::scheduler::{
    format_seconds, Calibration, CalibrationOptions, CostModel, Operation, Provenance,
    RightOperand, Worker, Workload,
};
use gpufhe::shortint::ShortintParameters;
use gpufhe::{get_number_of_gpus, ClientKey, CompressedServerKey, ConfigBuilder, Device, GpuIndex};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Command-line options.
struct Options {
    calibration: Option<PathBuf>,
    svg: PathBuf,
    calibrate: CalibrationOptions,
}

const USAGE: &str =
    "usage: offload_advisor [--calibration PATH] [--svg PATH] [--batch-sizes N,N,...]";

fn options() -> Result<Options, String> {
    let mut options = Options {
        calibration: None,
        svg: PathBuf::from("offload_advisor.svg"),
        calibrate: CalibrationOptions::default(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| {
            args.next()
                .ok_or_else(|| format!("{name} needs a value; {USAGE}"))
        };
        match arg.as_str() {
            "--calibration" => options.calibration = Some(value("--calibration")?.into()),
            "--svg" => options.svg = value("--svg")?.into(),
            "--batch-sizes" => {
                let list = value("--batch-sizes")?;
                options.calibrate.gpu_batch_sizes = list
                    .split(',')
                    .map(|n| n.trim().parse::<usize>())
                    .collect::<Result<_, _>>()
                    .map_err(|e| format!("--batch-sizes {list:?}: {e}; {USAGE}"))?;
                options.calibrate.validate().map_err(|e| e.to_string())?;
            }
            other => return Err(format!("unknown argument {other:?}; {USAGE}")),
        }
    }
    Ok(options)
}

/// The workloads of the table: add, mul, eq and lt on 8 and 64 bits, encrypted
/// operands on the CPU.
fn workloads() -> Vec<Workload> {
    let operations = [
        Operation::Binary(BinaryOp::Add, RightOperand::Encrypted),
        Operation::Binary(BinaryOp::Mul, RightOperand::Encrypted),
        Operation::Comparison(CmpOp::Eq, RightOperand::Encrypted),
        Operation::Comparison(CmpOp::Lt, RightOperand::Encrypted),
    ];
    let mut out = Vec::new();
    for bits in [8, 64] {
        for operation in operations {
            for count in [1, 100, 10_000] {
                out.push(Workload {
                    operation,
                    bits,
                    count,
                    operands: Device::Cpu,
                });
            }
        }
    }
    out
}

/// Prints the advice table of `model`.
fn print_table(model: &CostModel, params: &ShortintParameters) -> Result<(), String> {
    println!("{}", gpufhe::scheduler::Advice::header());
    for workload in workloads() {
        let advice = model.advise(params, &workload).map_err(|e| e.to_string())?;
        println!("{advice}");
    }
    Ok(())
}

/// One curve of the chart.
struct Curve {
    label: String,
    color: &'static str,
    dashed: bool,
    points: Vec<(f64, f64)>,
}

/// The predicted time of a batch of 64-bit additions against its size, for each
/// worker alone and for the scheduler's split over all of them.
fn curves(model: &CostModel, params: &ShortintParameters) -> Result<Vec<Curve>, String> {
    const COLORS: [&str; 6] = [
        "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b",
    ];
    let counts: Vec<usize> = (0..=50)
        .map(|i| 10f64.powf(i as f64 / 10.0).round() as usize)
        .collect();
    let mut curves: Vec<Curve> = model
        .workers()
        .iter()
        .enumerate()
        .map(|(i, &worker)| Curve {
            label: match worker {
                Worker::Cpu => format!(
                    "CPU, {} threads ({})",
                    model.cpu.as_ref().map_or(0, |c| c.threads),
                    model
                        .cpu
                        .as_ref()
                        .map_or(Provenance::Modelled, |c| c.provenance)
                ),
                Worker::Gpu(g) => model
                    .gpu(g)
                    .map(|s| format!("{g}: {} ({})", s.description, s.provenance))
                    .unwrap_or_default(),
            },
            color: COLORS[i % COLORS.len()],
            dashed: false,
            points: Vec::new(),
        })
        .collect();
    let mut split = Curve {
        label: "scheduler's split over all workers".into(),
        color: "#000000",
        dashed: true,
        points: Vec::new(),
    };
    for &count in &counts {
        let workload = Workload {
            operation: Operation::Binary(BinaryOp::Add, RightOperand::Encrypted),
            bits: 64,
            count,
            operands: Device::Cpu,
        };
        let advice = model.advise(params, &workload).map_err(|e| e.to_string())?;
        for (curve, (_, p)) in curves.iter_mut().zip(&advice.alone) {
            curve.points.push((count as f64, p.total().as_secs_f64()));
        }
        split
            .points
            .push((count as f64, advice.split_time.as_secs_f64()));
    }
    if curves.len() > 1 {
        curves.push(split);
    }
    Ok(curves)
}

/// Escapes text for SVG.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A power of ten of seconds, short: "1 µs", "10 ms", "100 s", "1e4 s".
fn seconds_label(exponent: i32) -> String {
    match exponent {
        e if e < -3 => format!("{} µs", 10u64.pow((e + 6).max(0) as u32)),
        e if e < 0 => format!("{} ms", 10u64.pow((e + 3) as u32)),
        e if e < 4 => format!("{} s", 10u64.pow(e as u32)),
        e => format!("1e{e} s"),
    }
}

/// A power of ten of operations, short: "1", "100", "10k".
fn count_label(exponent: i32) -> String {
    match exponent {
        e if e >= 3 => format!("{}k", 10u64.pow((e - 3) as u32)),
        e => format!("{}", 10u64.pow(e as u32)),
    }
}

/// The chart as SVG text: log-log axes with decade grid lines, one polyline per
/// curve, a legend.
fn svg(title: &str, subtitle: &str, curves: &[Curve]) -> String {
    let (width, height) = (900.0, 560.0);
    let (left, right, top, bottom) = (90.0, 30.0, 70.0, 60.0);
    let points = curves.iter().flat_map(|c| c.points.iter());
    let positive = |v: f64| v.is_finite() && v > 0.0;
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for &(x, y) in points.filter(|(x, y)| positive(*x) && positive(*y)) {
        x0 = x0.min(x.log10());
        x1 = x1.max(x.log10());
        y0 = y0.min(y.log10());
        y1 = y1.max(y.log10());
    }
    if x0 > x1 {
        (x0, x1, y0, y1) = (0.0, 1.0, 0.0, 1.0);
    }
    let (x0, x1) = (
        x0.floor() as i32,
        (x1.ceil() as i32).max(x0.floor() as i32 + 1),
    );
    let (y0, y1) = (
        y0.floor() as i32,
        (y1.ceil() as i32).max(y0.floor() as i32 + 1),
    );
    let plot_w = width - left - right;
    let plot_h = height - top - bottom;
    let sx = |x: f64| left + (x.log10() - x0 as f64) / (x1 - x0) as f64 * plot_w;
    let sy = |y: f64| top + plot_h - (y.log10() - y0 as f64) / (y1 - y0) as f64 * plot_h;

    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{}" y="24" font-size="16" text-anchor="middle">{}</text>"#,
        width / 2.0,
        escape(title)
    );
    let _ = writeln!(
        s,
        r##"<text x="{}" y="44" text-anchor="middle" fill="#555">{}</text>"##,
        width / 2.0,
        escape(subtitle)
    );
    for e in x0..=x1 {
        let x = sx(10f64.powi(e));
        let _ = writeln!(
            s,
            r##"<line x1="{x:.1}" y1="{top}" x2="{x:.1}" y2="{:.1}" stroke="#ddd"/><text x="{x:.1}" y="{:.1}" text-anchor="middle">{}</text>"##,
            top + plot_h,
            top + plot_h + 18.0,
            count_label(e)
        );
    }
    for e in y0..=y1 {
        let y = sy(10f64.powi(e));
        let _ = writeln!(
            s,
            r##"<line x1="{left}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"##,
            left + plot_w,
            left - 8.0,
            y + 4.0,
            seconds_label(e)
        );
    }
    let _ = writeln!(
        s,
        r#"<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="none" stroke="black"/>"#
    );
    let _ = writeln!(
        s,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">batch size (operations)</text>"#,
        left + plot_w / 2.0,
        height - 15.0
    );
    let _ = writeln!(
        s,
        r#"<text x="20" y="{:.1}" text-anchor="middle" transform="rotate(-90 20 {:.1})">predicted time of the batch</text>"#,
        top + plot_h / 2.0,
        top + plot_h / 2.0
    );
    for curve in curves {
        let path: Vec<String> = curve
            .points
            .iter()
            .filter(|(x, y)| positive(*x) && positive(*y))
            .map(|&(x, y)| format!("{:.1},{:.1}", sx(x), sy(y)))
            .collect();
        let dash = if curve.dashed {
            r#" stroke-dasharray="6 4""#
        } else {
            ""
        };
        let _ = writeln!(
            s,
            r#"<polyline points="{}" fill="none" stroke="{}" stroke-width="2"{dash}/>"#,
            path.join(" "),
            curve.color
        );
    }
    let legend_h = 20.0 * curves.len() as f64 + 10.0;
    let _ = writeln!(
        s,
        r##"<rect x="{:.1}" y="{:.1}" width="420" height="{legend_h}" fill="white" stroke="#999"/>"##,
        left + 10.0,
        top + 10.0
    );
    for (i, curve) in curves.iter().enumerate() {
        let y = top + 28.0 + 20.0 * i as f64;
        let dash = if curve.dashed {
            r#" stroke-dasharray="6 4""#
        } else {
            ""
        };
        let _ = writeln!(
            s,
            r#"<line x1="{:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="{}" stroke-width="2"{dash}/><text x="{:.1}" y="{:.1}">{}</text>"#,
            left + 20.0,
            left + 50.0,
            curve.color,
            left + 58.0,
            y + 4.0,
            escape(&curve.label)
        );
    }
    s.push_str("</svg>\n");
    s
}

fn run() -> Result<(), String> {
    let options = options()?;
    let started = Instant::now();
    let config = ConfigBuilder::default().build();
    let params = *config.parameters();
    let client_key = ClientKey::generate(config);
    let compressed = CompressedServerKey::new(&client_key);
    let gpus = get_number_of_gpus();
    let key = if gpus == 0 {
        println!("No GPU found: CPU-only advice.");
        compressed.decompress()
    } else {
        println!("{gpus} GPU(s) found: the server key is decompressed to each of them.");
        if std::env::var("GPUFHE_FAKE_CUDA").is_ok_and(|v| v == "1") {
            println!(
                "note: GPUFHE_FAKE_CUDA=1: these GPUs are the fake driver's CPU emulation; \
                 their figures say nothing about a real GPU"
            );
        }
        compressed
            .try_decompress_to_gpu()
            .map_err(|e| e.to_string())?
    };
    println!(
        "keys generated in {}",
        format_seconds(started.elapsed().as_secs_f64())
    );

    let cached = options.calibration.as_ref().and_then(|path| {
        if !path.exists() {
            return None;
        }
        match Calibration::load(path).and_then(|c| c.check(&key).map(|()| c)) {
            Ok(c) => {
                println!("calibration read from {}", path.display());
                Some(c)
            }
            Err(e) => {
                println!(
                    "{} is not usable here ({e}): measuring again",
                    path.display()
                );
                None
            }
        }
    });
    let calibration = match cached {
        Some(c) => c,
        None => {
            let start = Instant::now();
            let c =
                Calibration::measure_with(&key, &options.calibrate).map_err(|e| e.to_string())?;
            println!(
                "calibrated in {}",
                format_seconds(start.elapsed().as_secs_f64())
            );
            if let Some(path) = &options.calibration {
                c.save(path).map_err(|e| e.to_string())?;
                println!("calibration written to {}", path.display());
            }
            c
        }
    };
    // The key's own scheduler splits its batches with this calibration from now on;
    // the advice below is read from the same model the dispatcher uses.
    key.use_calibration(&calibration)
        .map_err(|e| e.to_string())?;
    let model = key.cost_model();
    println!("\n{calibration}");

    let chart_model = if gpus == 0 {
        println!(
            "No GPU was found: CPU-only advice for this machine (the key's cost model, CPU \
             measured):\n"
        );
        print_table(&model, &params)?;
        let threads = model.cpu.as_ref().map_or(1, |c| c.threads);
        let mut what_if = model.clone();
        what_if.gpus = CostModel::modelled(&params, threads, &[GpuIndex::new(0)]).gpus;
        println!(
            "\nThe same workloads if this machine had one H100 SXM (CPU measured, every GPU \
             figure modelled, not measured):\n"
        );
        print_table(&what_if, &params)?;
        what_if
    } else {
        println!(
            "Advice for this machine (the key's cost model, as its dispatcher splits batches; \
             every figure measured):\n"
        );
        print_table(&model, &params)?;
        model
    };

    let curves = curves(&chart_model, &params)?;
    let subtitle = if gpus == 0 {
        "CPU measured on this machine; no GPU found: the GPU curve is modelled (H100 SXM)"
    } else if std::env::var("GPUFHE_FAKE_CUDA").is_ok_and(|v| v == "1") {
        "every worker measured on this machine (the GPUs are the fake driver's emulation)"
    } else {
        "every worker measured on this machine"
    };
    let chart = svg(
        "Predicted time of a batch of FheUint64 additions (log-log)",
        subtitle,
        &curves,
    );
    std::fs::write(&options.svg, chart)
        .map_err(|e| format!("cannot write {}: {e}", options.svg.display()))?;
    println!(
        "\nchart written to {} (total {})",
        options.svg.display(),
        format_seconds(started.elapsed().as_secs_f64())
    );
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("offload_advisor: {e}");
            ExitCode::FAILURE
        }
    }
}
