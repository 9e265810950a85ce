//! Calibration asked through a server key: [`ServerKey::calibrate`], and the
//! [`Calibration`] methods that take a key. The scheduler measures its own workers
//! (`scheduler::calibrate`); this is the face the high-level key shows, so that the
//! scheduler never sees the key.

use super::server::ServerKey;
use crate::error::Result;
use crate::scheduler::{Calibration, CalibrationOptions, CostModel};

impl ServerKey {
    /// Measures the speeds of this key's workers (its CPU worker and every GPU it
    /// computes on) with the default options: [`Calibration::measure`].
    ///
    /// ```no_run
    /// use gpufhe::{generate_keys, ConfigBuilder};
    /// let (_client_key, server_key) = generate_keys(ConfigBuilder::default());
    /// let calibration = server_key.calibrate().unwrap();
    /// assert!(calibration.check(&server_key).is_ok());
    /// ```
    pub fn calibrate(&self) -> Result<Calibration> {
        Calibration::measure(self)
    }
}

impl Calibration {
    /// Measures the CPU worker and every GPU of `key` with the default options
    /// ([`CalibrationOptions::default`]). Takes seconds on the default parameters.
    ///
    /// ```no_run
    /// use gpufhe::scheduler::Calibration;
    /// use gpufhe::{ClientKey, CompressedServerKey, ConfigBuilder};
    /// let client_key = ClientKey::generate(ConfigBuilder::default());
    /// let key = CompressedServerKey::new(&client_key).try_decompress_to_gpu().unwrap();
    /// let calibration = Calibration::measure(&key).unwrap();
    /// println!("{calibration}");
    /// assert_eq!(calibration.gpus().len() as u32, gpufhe::get_number_of_gpus());
    /// ```
    pub fn measure(key: &ServerKey) -> Result<Self> {
        Self::measure_with(key, &CalibrationOptions::default())
    }

    /// [`Calibration::measure`] with `options`.
    ///
    /// ```no_run
    /// use gpufhe::scheduler::{Calibration, CalibrationOptions};
    /// use gpufhe::{generate_keys, ConfigBuilder};
    /// let (_client_key, server_key) = generate_keys(ConfigBuilder::default());
    /// let options = CalibrationOptions { repetitions: 1, ..CalibrationOptions::default() };
    /// let calibration = Calibration::measure_with(&server_key, &options).unwrap();
    /// assert!(calibration.cpu().seconds_per_bootstrap_one_core > 0.0);
    /// ```
    pub fn measure_with(key: &ServerKey, options: &CalibrationOptions) -> Result<Self> {
        Self::measure_scheduler(key.scheduler(), options)
    }

    /// `Err` unless this calibration was measured for `key`'s parameters and on its
    /// GPUs (each of them, by ordinal and description).
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// use gpufhe::generate_keys;
    /// use gpufhe::scheduler::{Calibration, CostModel};
    /// let (_client_key, server_key) = generate_keys(config);
    /// let params = *server_key.config().parameters();
    /// let cpu = CostModel::modelled(&params, 2, &[]).cpu.unwrap();
    /// let calibration = Calibration::new(params, cpu.clone(), vec![]).unwrap();
    /// assert!(calibration.check(&server_key).is_ok());
    /// let mut other = params;
    /// other.lwe_dimension.0 += 2;
    /// let elsewhere = Calibration::new(other, cpu, vec![]).unwrap();
    /// assert!(elsewhere.check(&server_key).is_err());
    /// ```
    pub fn check(&self, key: &ServerKey) -> Result<()> {
        self.check_workers(key.config().parameters(), &key.gpus())
    }

    /// The cost model of `key`'s workers: the CPU, and the GPUs the key computes on.
    /// `Err` if the calibration does not belong to the key ([`Calibration::check`]).
    ///
    /// ```
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// # let config = gpufhe::ConfigBuilder::default()
    /// #     .with_insecure_custom_parameters(TEST_PARAMS)
    /// #     .unwrap();
    /// use gpufhe::generate_keys;
    /// use gpufhe::scheduler::{Calibration, CostModel};
    /// let (_client_key, server_key) = generate_keys(config);
    /// let params = *server_key.config().parameters();
    /// let cpu = CostModel::modelled(&params, 2, &[]).cpu.unwrap();
    /// let calibration = Calibration::new(params, cpu, vec![]).unwrap();
    /// let model = calibration.cost_model_for(&server_key).unwrap();
    /// assert!(model.gpus.is_empty() && model.cpu.is_some());
    /// ```
    pub fn cost_model_for(&self, key: &ServerKey) -> Result<CostModel> {
        self.cost_model_of(key.config().parameters(), &key.gpus())
    }
}
