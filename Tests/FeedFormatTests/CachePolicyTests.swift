import FeedFormat
import Testing

@Suite struct CacheControlTests {
    @Test func directivesAreReadCaseInsensitivelyWithTheirArguments() {
        let control = CacheControl(parsing: ["MAX-AGE=60, No-Cache, stale-while-revalidate=30", "stale-if-error=\"600\", immutable, public"])
        #expect(control.maxAge == 60 && control.noCache && control.immutable && control.isPublic)
        #expect(control.staleWhileRevalidate == 30 && control.staleIfError == 600)
        #expect(!control.noStore && !control.mustRevalidate)
    }

    /// Section 4.2.1: the first of a repeated directive; an invalid delta-seconds is stale.
    @Test func theFirstOfARepeatedDirectiveCountsAndAnInvalidAgeIsZero() {
        #expect(CacheControl(parsing: ["max-age=60, max-age=10"]).maxAge == 60)
        #expect(CacheControl(parsing: ["max-age=10", "max-age=60"]).maxAge == 10)
        for bad in ["max-age=abc", "max-age=-5", "max-age=", "max-age", "max-age=1.5"] {
            #expect(CacheControl(parsing: [bad]).maxAge == 0, "\(bad)")
        }
        #expect(CacheControl(parsing: ["max-age=99999999999999999999"]).maxAge == 1 << 31)
    }

    @Test func quotedArgumentsAndUnknownDirectivesDoNotConfuseTheList() {
        let control = CacheControl(parsing: [#"private="set-cookie, x", no-cache="a,b", ext="q\"uo,te", must-revalidate, no-store"#])
        #expect(control.noCache && control.mustRevalidate && control.noStore)
        #expect(control.maxAge == nil)
        #expect(CacheControl(parsing: ["", " , ,", "garbage;;"]) == CacheControl())
    }
}

@Suite struct CachePolicyTests {
    static let date = HTTPDate.parse("Tue, 24 Nov 2026 12:00:00 GMT")!

    static func fields(_ pairs: [(String, String)]) -> HTTPFields {
        HTTPFields([("Date", HTTPDate.format(date))] + pairs)
    }

    @Test func maxAgeWinsOverExpiresWhichWinsOverTheHeuristic() {
        let expires = HTTPDate.format(Self.date + 300), modified = HTTPDate.format(Self.date - 10_000)
        #expect(CachePolicy.freshnessLifetime(status: 200, response: Self.fields([("Cache-Control", "max-age=60"), ("Expires", expires)]), receivedAt: Self.date) == 60)
        #expect(CachePolicy.freshnessLifetime(status: 200, response: Self.fields([("Expires", expires), ("Last-Modified", modified)]), receivedAt: Self.date) == 300)
        #expect(CachePolicy.freshnessLifetime(status: 200, response: Self.fields([("Last-Modified", modified)]), receivedAt: Self.date) == 1_000)
        // An unreadable Expires is in the past; no heuristic for a status that allows none.
        #expect(CachePolicy.freshnessLifetime(status: 200, response: Self.fields([("Expires", "0"), ("Last-Modified", modified)]), receivedAt: Self.date) == 0)
        #expect(CachePolicy.freshnessLifetime(status: 500, response: Self.fields([("Last-Modified", modified)]), receivedAt: Self.date) == 0)
        #expect(CachePolicy.freshnessLifetime(status: 200, response: Self.fields([]), receivedAt: Self.date) == 0)
    }

    /// Section 4.2.3: Age plus the exchange's delay, or the apparent age, plus time in the cache.
    @Test func theAgeCountsTheAgeFieldTheDelayAndTheTimeStored() {
        let response = Self.fields([("Age", "100")])
        #expect(CachePolicy.currentAge(response: response, requestTime: Self.date - 2, responseTime: Self.date, now: Self.date) == 102)
        #expect(CachePolicy.currentAge(response: response, requestTime: Self.date - 2, responseTime: Self.date, now: Self.date + 50) == 152)
        // A Date in the past (a clock behind, or a response that waited): the apparent age.
        let old = HTTPFields([("Date", HTTPDate.format(Self.date - 500))])
        #expect(CachePolicy.currentAge(response: old, requestTime: Self.date, responseTime: Self.date, now: Self.date) == 500)
        // A hostile Age is capped at 2^31 seconds (RFC 9111, 1.2.2) and cannot overflow the sum.
        let hostile = Self.fields([("Age", "9223372036854775807")])
        #expect(CachePolicy.currentAge(response: hostile, requestTime: Self.date, responseTime: Self.date, now: Self.date + 10) == (1 << 31) + 10)
    }

    @Test func freshThenStaleRevalidatingWithBothValidators() {
        let response = Self.fields([("Cache-Control", "max-age=60"), ("ETag", "\"v1\""), ("Last-Modified", HTTPDate.format(Self.date - 3600))])
        #expect(CachePolicy.use(status: 200, response: response, requestTime: Self.date, responseTime: Self.date, now: Self.date + 59) == .fresh)
        guard case .revalidate(let conditional) = CachePolicy.use(status: 200, response: response, requestTime: Self.date, responseTime: Self.date, now: Self.date + 60) else {
            Issue.record("a response 60 s old with max-age=60 is stale"); return
        }
        #expect(conditional["If-None-Match"] == "\"v1\"")
        #expect(conditional["if-modified-since"] == HTTPDate.format(Self.date - 3600))
        // Without validators the revalidation is a plain request.
        #expect(CachePolicy.use(status: 200, response: Self.fields([]), requestTime: Self.date, responseTime: Self.date, now: Self.date) == .revalidate(HTTPFields()))
    }

    @Test func noCacheIsRevalidatedEvenWhenFresh() {
        let response = Self.fields([("Cache-Control", "max-age=600, no-cache"), ("ETag", "\"v1\"")])
        #expect(CachePolicy.use(status: 200, response: response, requestTime: Self.date, responseTime: Self.date, now: Self.date) == .revalidate(HTTPFields([("If-None-Match", "\"v1\"")])))
    }

    @Test func staleWhileRevalidateHasAWindowAndMustRevalidateClosesIt() {
        let response = Self.fields([("Cache-Control", "max-age=60, stale-while-revalidate=30")])
        #expect(CachePolicy.use(status: 200, response: response, requestTime: Self.date, responseTime: Self.date, now: Self.date + 90) == .staleWhileRevalidate)
        #expect(CachePolicy.use(status: 200, response: response, requestTime: Self.date, responseTime: Self.date, now: Self.date + 91) == .revalidate(HTTPFields()))
        let strict = Self.fields([("Cache-Control", "max-age=60, stale-while-revalidate=30, must-revalidate")])
        #expect(CachePolicy.use(status: 200, response: strict, requestTime: Self.date, responseTime: Self.date, now: Self.date + 61) == .revalidate(HTTPFields()))
    }

    @Test func staleIfErrorHasAWindowAndNeverOverridesMustRevalidate() {
        let response = Self.fields([("Cache-Control", "max-age=60, stale-if-error=600")])
        #expect(CachePolicy.mayServeOnError(status: 200, response: response, requestTime: Self.date, responseTime: Self.date, now: Self.date + 660))
        #expect(!CachePolicy.mayServeOnError(status: 200, response: response, requestTime: Self.date, responseTime: Self.date, now: Self.date + 661))
        let strict = Self.fields([("Cache-Control", "max-age=60, stale-if-error=600, must-revalidate")])
        #expect(!CachePolicy.mayServeOnError(status: 200, response: strict, requestTime: Self.date, responseTime: Self.date, now: Self.date + 61))
        #expect(!CachePolicy.mayServeOnError(status: 200, response: Self.fields([("Cache-Control", "max-age=60")]), requestTime: Self.date, responseTime: Self.date, now: Self.date + 61))
    }

    @Test func whatMayBeStored() {
        #expect(CachePolicy.isStorable(status: 200, response: Self.fields([])))
        #expect(CachePolicy.isStorable(status: 404, response: Self.fields([("Cache-Control", "max-age=5")])))
        #expect(!CachePolicy.isStorable(status: 200, response: Self.fields([("Cache-Control", "max-age=60, no-store")])))
        #expect(!CachePolicy.isStorable(status: 200, response: Self.fields([("Vary", "Accept, *")])))
        #expect(!CachePolicy.isStorable(status: 206, response: Self.fields([("Cache-Control", "max-age=60")])))
        #expect(!CachePolicy.isStorable(status: 500, response: Self.fields([("Cache-Control", "max-age=60")])))
        #expect(!CachePolicy.isStorable(status: 302, response: Self.fields([])))
    }

    /// Section 3.2: a 304's fields replace the stored ones, but not those of the stored body.
    @Test func aNotModifiedUpdatesTheStoredFields() {
        let stored = HTTPFields([("Content-Type", "image/jpeg"), ("Content-Length", "1000"), ("ETag", "\"v1\""),
                                 ("Cache-Control", "max-age=60"), ("Date", "old")])
        let notModified = HTTPFields([("ETag", "\"v1\""), ("Cache-Control", "max-age=600"), ("Date", "new"), ("Content-Length", "0")])
        let updated = CachePolicy.updating(stored, with: notModified)
        #expect(updated["cache-control"] == "max-age=600" && updated["date"] == "new" && updated["etag"] == "\"v1\"")
        #expect(updated["content-length"] == "1000" && updated["content-type"] == "image/jpeg")
        #expect(updated.values("cache-control").count == 1)
    }

    @Test func varyMakesASecondaryKey() {
        #expect(CachePolicy.varyNames(HTTPFields([("Vary", "Accept-Encoding, accept"), ("Vary", "Authorization")])) == ["accept", "accept-encoding", "authorization"])
        #expect(CachePolicy.varyNames(HTTPFields([])) == [])
        let names = ["accept", "authorization"]
        let one = CachePolicy.secondaryKey(names: names, request: HTTPFields([("Authorization", "Bearer a"), ("Accept", "image/*")]))
        let two = CachePolicy.secondaryKey(names: names, request: HTTPFields([("Authorization", "Bearer b"), ("Accept", "image/*")]))
        #expect(one != two)
        #expect(one == CachePolicy.secondaryKey(names: names, request: HTTPFields([("accept", "image/*"), ("AUTHORIZATION", "Bearer a")])))
    }
}
