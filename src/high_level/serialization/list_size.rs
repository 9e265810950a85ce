//! [`ListSizeConstraint`]: how many values a deserialized list may hold (TFHE-rs's
//! type of the same name), checked by the conformance of
//! [`crate::CompactCiphertextList`] when its [`super::conformance::ConformanceParams`]
//! carry one ([`super::conformance::ConformanceParams::from_parameters_and_size_constraint`]).

/// The sizes a list may have: a number of groups of `group_size` elements, between
/// a minimum and a maximum number of groups (both inclusive).
///
/// ```
/// use gpufhe::conformance::ListSizeConstraint;
/// assert!(ListSizeConstraint::exact_size(2).is_valid(2));
/// assert!(!ListSizeConstraint::exact_size(2).is_valid(3));
/// let range = ListSizeConstraint::try_size_in_range(1, 4).unwrap();
/// assert!(range.is_valid(4) && !range.is_valid(0) && !range.is_valid(5));
/// let pairs = ListSizeConstraint::try_size_of_group_in_range(2, 1, 3).unwrap();
/// assert!(pairs.is_valid(6) && !pairs.is_valid(5));
/// assert!(pairs.multiply_group_size(2).is_valid(12));
/// assert!(ListSizeConstraint::try_size_in_range(3, 2).is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListSizeConstraint {
    min_groups: usize,
    max_groups: usize,
    group_size: usize,
}

impl ListSizeConstraint {
    /// Exactly `size` elements.
    ///
    /// ```
    /// use gpufhe::conformance::ListSizeConstraint;
    /// let two = ListSizeConstraint::exact_size(2);
    /// assert!(two.is_valid(2) && !two.is_valid(1) && !two.is_valid(3));
    /// ```
    pub fn exact_size(size: usize) -> Self {
        Self {
            min_groups: size,
            max_groups: size,
            group_size: 1,
        }
    }

    /// From `min_inclusive` to `max_inclusive` elements; `Err` if the maximum is
    /// below the minimum.
    ///
    /// ```
    /// use gpufhe::conformance::ListSizeConstraint;
    /// let range = ListSizeConstraint::try_size_in_range(1, 4).unwrap();
    /// assert!(range.is_valid(1) && range.is_valid(4) && !range.is_valid(5));
    /// assert!(ListSizeConstraint::try_size_in_range(3, 2).is_err());
    /// ```
    pub fn try_size_in_range(min_inclusive: usize, max_inclusive: usize) -> Result<Self, String> {
        Self::try_size_of_group_in_range(1, min_inclusive, max_inclusive)
    }

    /// From `min_inclusive_group_count` to `max_inclusive_group_count` groups of
    /// `group_size` elements; `Err` if the maximum is below the minimum.
    ///
    /// ```
    /// use gpufhe::conformance::ListSizeConstraint;
    /// // One to three pairs.
    /// let pairs = ListSizeConstraint::try_size_of_group_in_range(2, 1, 3).unwrap();
    /// assert!(pairs.is_valid(2) && pairs.is_valid(6));
    /// assert!(!pairs.is_valid(5) && !pairs.is_valid(8));
    /// ```
    pub fn try_size_of_group_in_range(
        group_size: usize,
        min_inclusive_group_count: usize,
        max_inclusive_group_count: usize,
    ) -> Result<Self, String> {
        if max_inclusive_group_count < min_inclusive_group_count {
            return Err(format!(
                "the maximum size ({max_inclusive_group_count}) is below the minimum \
                 ({min_inclusive_group_count})"
            ));
        }
        Ok(Self {
            min_groups: min_inclusive_group_count,
            max_groups: max_inclusive_group_count,
            group_size,
        })
    }

    /// The same numbers of groups, each `group_size_multiplier` times larger (for
    /// example values counted in blocks); a group size that would overflow
    /// `usize` saturates.
    ///
    /// ```
    /// use gpufhe::conformance::ListSizeConstraint;
    /// // Two to four values of 32 blocks each, counted in blocks.
    /// let values = ListSizeConstraint::try_size_in_range(2, 4).unwrap();
    /// let blocks = values.multiply_group_size(32);
    /// assert!(blocks.is_valid(64) && blocks.is_valid(128));
    /// assert!(!blocks.is_valid(4) && !blocks.is_valid(65));
    /// ```
    pub fn multiply_group_size(&self, group_size_multiplier: usize) -> Self {
        Self {
            group_size: self.group_size.saturating_mul(group_size_multiplier),
            ..*self
        }
    }

    /// Whether a list of `size` elements satisfies the constraint (groups of no
    /// element allow only empty lists).
    ///
    /// ```
    /// use gpufhe::conformance::ListSizeConstraint;
    /// assert!(ListSizeConstraint::exact_size(3).is_valid(3));
    /// let empty_groups = ListSizeConstraint::try_size_of_group_in_range(0, 1, 2).unwrap();
    /// assert!(empty_groups.is_valid(0) && !empty_groups.is_valid(1));
    /// ```
    pub fn is_valid(&self, size: usize) -> bool {
        if self.group_size == 0 {
            return size == 0;
        }
        size % self.group_size == 0
            && (self.min_groups..=self.max_groups).contains(&(size / self.group_size))
    }
}
