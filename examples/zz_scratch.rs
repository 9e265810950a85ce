use gpufhe::prelude::*;
use gpufhe::{set_server_key, ConfigBuilder, FheUint64};
use rayon::prelude::*;
use std::time::Instant;
fn main() {
    let (ck, sk) = gpufhe::generate_keys(ConfigBuilder::default());
    set_server_key(sk.clone());
    let a = FheUint64::encrypt(5u64, &ck);
    let b = FheUint64::encrypt(7u64, &ck);
    for _ in 0..2 {
        let _ = &a + &b;
    }
    let t = Instant::now();
    for _ in 0..4 {
        let _ = &a + &b;
    }
    println!(
        "single add: {:.3} s (threads {})",
        t.elapsed().as_secs_f64() / 4.0,
        rayon::current_num_threads()
    );
    let n: usize = std::env::args().nth(1).map_or(8, |s| s.parse().unwrap());
    let l = vec![a.clone(); n];
    let r = vec![b.clone(); n];
    let t = Instant::now();
    let out: Vec<FheUint64> = l
        .par_iter()
        .zip(r.par_iter())
        .map(|(x, y)| {
            set_server_key(sk.clone());
            x + y
        })
        .collect();
    println!(
        "par_iter {n}: {:.3} s per add",
        t.elapsed().as_secs_f64() / n as f64
    );
    drop(out);
    let t = Instant::now();
    let out = FheUint64::batch_add(&l, &r).unwrap();
    println!(
        "batch {n}: {:.3} s per add",
        t.elapsed().as_secs_f64() / n as f64
    );
    drop(out);
}
