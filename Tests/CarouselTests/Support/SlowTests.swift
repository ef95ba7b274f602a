import CarouselTestSupport
import Testing

/// Tests that render at length (seconds each in a debug build) run when
/// `CAROUSEL_SLOW_TESTS=1`, as `.ci/run` sets it (``SuiteTier``).
enum SlowTests {
    /// The trait of a test that renders at length.
    static var rendersAtLength: ConditionTrait { .enabled(if: SuiteTier.everything, Comment(rawValue: SuiteTier.rendersAtLength)) }
    /// The trait of a test that expands a million script steps (seconds in a debug build).
    static var millionSteps: ConditionTrait { .enabled(if: SuiteTier.everything, Comment(rawValue: SuiteTier.millionSteps)) }
}
