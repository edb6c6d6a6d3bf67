import CoreKit
/// Writes frame records as Chrome trace-event JSON, the format Perfetto and
/// `chrome://tracing` open: commits and idle jobs as slices on a "main" track, hitches
/// as slices from the vsync a frame was due to the vsync it was shown, on their own track;
/// ticks at which the terminal had not taken the frame before ("terminal" hitches, one
/// period each) on a track of their own.
public enum ChromeTrace {
    /// The whole trace as one JSON document.
    /// - Complexity: O(frames + jobs).
    public static func json(for records: [FrameRecord], refreshRate: RefreshRate, processName: String = "destinations") -> String {
        var events: [String] = [
            metadata("process_name", tid: 0, name: "\(processName) @ \(refreshRate)"),
            metadata("thread_name", tid: 1, name: "main: commit + idle work"),
            metadata("thread_name", tid: 2, name: "hitches"),
            metadata("thread_name", tid: 3, name: "terminal behind"),
        ]
        events.reserveCapacity(records.count * 2 + 3)
        for frame in records {
            events.append(slice(
                "commit", category: "frame", tid: 1, start: frame.commitStart, end: frame.commitEnd,
                args: "\"frame\":\(frame.index),\"deadline_ms\":\(ms(frame.deadline)),\"drain_ms\":\(ms(frame.drainEnd - frame.commitStart)),\"cpu_ms\":\(ms(frame.commitCPU))"
            ))
            for job in frame.idleJobs {
                events.append(slice(
                    job.kind, category: "idle", tid: 1, start: job.start, end: job.end,
                    args: "\"frame\":\(frame.index),\"predicted_ms\":\(job.predicted.map { ms($0) } ?? "null")"
                ))
            }
            if frame.isHitch {
                events.append(slice(
                    "hitch", category: "hitch", tid: 2, start: frame.deadline, end: frame.presentedAt,
                    args: "\"frame\":\(frame.index),\"hitch_ms\":\(ms(frame.hitchTime)),\"skipped_ticks\":\(frame.skippedTicks),\"work_from_tick_ms\":\(ms(frame.workFromTick)),\"from_waiting\":\(frame.isHitchFromWaiting)"
                ))
            }
            if frame.terminalBehind {
                events.append(slice(
                    "terminal", category: "hitch", tid: 3, start: frame.tick, end: frame.tick + frame.period,
                    args: "\"frame\":\(frame.index),\"kind\":\"terminal\""
                ))
            }
        }
        return "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n" + events.joined(separator: ",\n") + "\n]}\n"
    }

    private static func slice(_ name: String, category: String, tid: Int, start: Duration, end: Duration, args: String) -> String {
        "{\"name\":\(JSONString.quoted(name)),\"cat\":\"\(category)\",\"ph\":\"X\",\"pid\":1,\"tid\":\(tid),"
            + "\"ts\":\(us(start)),\"dur\":\(us(end - start)),\"args\":{\(args)}}"
    }

    private static func metadata(_ kind: String, tid: Int, name: String) -> String {
        "{\"name\":\"\(kind)\",\"ph\":\"M\",\"pid\":1,\"tid\":\(tid),\"args\":{\"name\":\(JSONString.quoted(name))}}"
    }

    /// Microseconds with nanosecond precision, as the format expects.
    private static func us(_ d: Duration) -> String {
        let ns = d.nanoseconds
        let sign = ns < 0 ? "-" : ""
        let magnitude = ns.magnitude
        let fraction = String(magnitude % 1000)
        return "\(sign)\(magnitude / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }

    private static func ms(_ d: Duration) -> String {
        let ns = d.nanoseconds
        let sign = ns < 0 ? "-" : ""
        let magnitude = ns.magnitude
        let fraction = String(magnitude % 1_000_000)
        return "\(sign)\(magnitude / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)"
    }
}
