"""Hard-for-terminals text, written with explicit escapes so each code point is visible in source."""
ZWJ, ZWNJ, ZWSP = "\u200d", "\u200c", "\u200b"
VS15, VS16 = "\ufe0e", "\ufe0f"
ALM = "\u061c"                      # ARABIC LETTER MARK
PRIDE = "\U0001F3F3\ufe0f\u200d\U0001F308"            # rainbow flag (ZWJ sequence)
FAMILY = "\U0001F469\u200d\U0001F469\u200d\U0001F467"  # woman woman girl (ZWJ sequence)
JP_FLAG = "\U0001F1EF\U0001F1F5"                     # regional indicators J P
KEYCAP1 = "1\ufe0f\u20e3"                            # keycap one
SMILE_TEXT = "\u263a\ufe0e"                          # VS15 text presentation
SMILE_EMOJI = "\u263a\ufe0f"                         # VS16 emoji presentation
WAVE_MED = "\U0001F44B\U0001F3FD"                    # waving hand + medium skin tone
SCOTLAND = "\U0001F3F4\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F"  # tag-sequence flag
LANG_TAG_JA = "\U000E0001\U000E006A\U000E0061"       # deprecated LANGUAGE TAG + tag 'j' 'a'
E_DECOMP = "e\u0301"                                  # é decomposed
ZALGO_C = "c" + "\u0300\u0301\u0302\u0303\u0304\u0306\u0307\u0308\u030a\u030b"  # c + 10 combining marks
ZALGO_WORD = "fo" + "\u0316\u0317\u0318\u0319\u031c\u031d\u031e\u031f\u0320\u0324" + "g"

JA_HARBOUR = "港の夕暮れ"        # harbour at dusk
JA_HUT = "山小屋で一泊"          # a night in a mountain hut
AR_HARBOUR = "الميناء عند الغسق"   # harbour at dusk
HE_HUT = "בקתה בהרים"             # a hut in the mountains
FA_ZWNJ = "می" + ZWNJ + "خواهم"   # Persian word that needs ZWNJ

# Everything at once, for one alt text / content per server.
ALL_HARD = (f"{PRIDE} {FAMILY} {JP_FLAG} {KEYCAP1} {SMILE_TEXT}/{SMILE_EMOJI} {WAVE_MED} {SCOTLAND} "
            f"{JA_HUT} {ALM}{AR_HARBOUR} {HE_HUT} caf{E_DECOMP} {ZALGO_C} zero{ZWSP}width {FA_ZWNJ} "
            f"tag{LANG_TAG_JA}chars")
