/// Scrolling in rows, as UIScrollView moves: animated steps and pages that ease out, flings
/// that decelerate by 0.998 per millisecond, wheel ticks that add velocity, and hard stops
/// at both ends. A motion ends on the frame the screen first shows the row it rests on:
/// what is left moves within that row, which a grid of whole rows never shows. Time comes
/// from outside (the frame's presentation time), so the same input gives the same motion on
/// a virtual clock.
public struct ScrollPhysics: Sendable {
    /// UIScrollView's normal deceleration rate, per millisecond.
    public static let decelerationPerMillisecond = 0.998
    /// How long an animated step or page takes.
    public static let stepDuration: Duration = .milliseconds(150)
    /// Below this speed (rows per second) a fling has stopped.
    public static let restingSpeed = 1.0

    /// The content row at the viewport's top, with a fraction (0 at the top of the content).
    public private(set) var offset: Double = 0
    /// Rows per second; positive scrolls down (content moves up).
    public private(set) var velocity: Double = 0
    /// Rows of content (``setSizes(content:viewport:)``).
    public private(set) var contentHeight = 0
    /// Rows the viewport shows.
    public private(set) var viewportHeight = 0
    private var animation: (from: Double, to: Double, start: Duration)?
    private var lastTime: Duration?

    /// At rest at the top, with no content yet.
    public init() {}

    /// The largest offset: the last content row at the viewport's bottom.
    public var maximumOffset: Double { Double(max(0, contentHeight - viewportHeight)) }
    /// A step animation or a fling is under way (the next frame will move).
    public var isMoving: Bool { animation != nil || velocity != 0 }
    /// Where the motion under way comes to rest: a step's target, or where a fling's speed
    /// falls to ``restingSpeed``; the offset itself at rest.
    public var restingOffset: Double {
        if let animation { return animation.to }
        guard abs(velocity) > Self.restingSpeed else { return offset }
        let slowest = velocity > 0 ? Self.restingSpeed : -Self.restingSpeed
        return min(max(offset + Self.flingDistance(speed: velocity - slowest), 0), maximumOffset)
    }
    /// +1 scrolling down, -1 up, 0 at rest: orients the prefetch ranges.
    public var direction: Int {
        if let animation { return animation.to > animation.from ? 1 : (animation.to < animation.from ? -1 : 0) }
        return velocity > 0 ? 1 : (velocity < 0 ? -1 : 0)
    }

    /// New content or viewport size (data change, resize): the offset stays, clamped.
    public mutating func setSizes(content: Int, viewport: Int) {
        contentHeight = max(0, content)
        viewportHeight = max(0, viewport)
        offset = min(max(offset, 0), maximumOffset)
        if let current = animation { animation = (current.from, min(max(current.to, 0), maximumOffset), current.start) }
    }

    /// Jumps (no animation), e.g. Home/End or keeping an item in place after a resize.
    public mutating func jump(to target: Double) {
        animation = nil
        velocity = 0
        offset = min(max(target, 0), maximumOffset)
    }

    /// An animated step of `rows` (arrow keys: 1 or the item pitch; pages: a screen).
    /// Steps pressed during an animation add to where it was going.
    public mutating func step(by rows: Double, at time: Duration) {
        let base = animation?.to ?? offset
        velocity = 0
        animation = (offset, min(max(base + rows, 0), maximumOffset), time)
    }

    /// Starts a fling at `speed` rows per second.
    public mutating func fling(speed: Double, at time: Duration) {
        animation = nil
        velocity = speed
        lastTime = time
    }

    /// A mouse-wheel tick adds velocity in its direction (repeated ticks accelerate).
    public mutating func wheel(rows: Double, at time: Duration) {
        animation = nil
        if lastTime == nil || velocity == 0 { lastTime = time }
        velocity += rows * 12
    }

    /// Moves to `time`. Decelerated motion is integrated exactly, not stepped:
    /// v(t) = v₀·d^t and x(t) = x₀ + v₀·(d^t − 1)/ln d, with t in milliseconds.
    public mutating func advance(to time: Duration) {
        defer { lastTime = time }
        if let current = animation {
            let elapsed = (time - current.start) / Self.stepDuration
            let rest = 1 - min(max(elapsed, 0), 1)
            let eased = 1 - rest * rest * rest  // ease-out cubic
            offset = current.from + (current.to - current.from) * eased
            if elapsed >= 1 || Int(offset) == Int(current.to) {
                // Done, or what is left of the ease-out stays within the row now shown.
                offset = current.to
                animation = nil
            }
            return
        }
        guard velocity != 0, let last = lastTime else { return }
        let ms = max(0, (time - last) / .milliseconds(1))
        let d = Self.decelerationPerMillisecond
        let decay = Platform.power(d, ms)
        offset += (velocity / 1000) * (decay - 1) / Platform.naturalLog(d)
        velocity *= decay
        // Stop at an end only when moving into it: a fling that starts at the top and
        // goes down must not be stopped by the top.
        if (offset <= 0 && velocity < 0) || (offset >= maximumOffset && velocity > 0) {
            offset = min(max(offset, 0), maximumOffset)
            velocity = 0
        }
        if abs(velocity) < Self.restingSpeed { velocity = 0 }
        // A fling's last 0–0.55 s move the offset within the row already shown: the screen,
        // which shows whole rows, no longer changes. End the motion there, with the offset
        // where it would have come to rest (the same row, so nothing on the screen changes,
        // and a fling to the top rests at 0, at the top), so that frames, pictures held while
        // scrolling and the settle clock stop with the screen (D-080).
        let rest = restingOffset
        if velocity != 0 && Int(rest) == Int(offset) {
            offset = rest
            velocity = 0
        }
    }

    /// Where a fling at `speed` comes to rest, before clamping: v₀ / (1000 · −ln d).
    public static func flingDistance(speed: Double) -> Double {
        speed / 1000 / -Platform.naturalLog(decelerationPerMillisecond)
    }
}
