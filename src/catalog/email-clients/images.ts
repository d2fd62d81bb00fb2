// Written by scripts/email-client-examples.ts: each render's screenshot, embedded in the binary when compiled.
import i0 from "./apple-mail-ios-mobile-sm.jpg" with { type: "file" };
import i1 from "./apple-mail-ios-dark-mobile-sm.jpg" with { type: "file" };
import i2 from "./gmail-ios-mobile-sm.jpg" with { type: "file" };
import i3 from "./gmail-ios-dark-mobile-sm.jpg" with { type: "file" };
import i4 from "./gmail-android-mobile-sm.jpg" with { type: "file" };
import i5 from "./gmail-android-dark-mobile-sm.jpg" with { type: "file" };
import i6 from "./outlook-ios-mobile-sm.jpg" with { type: "file" };
import i7 from "./outlook-ios-dark-mobile-sm.jpg" with { type: "file" };
import i8 from "./gmail-android-non-google-mobile-sm.jpg" with { type: "file" };
import i9 from "./gmail-android-non-google-dark-mobile-sm.jpg" with { type: "file" };
import i10 from "./samsung-mail-mobile-sm.jpg" with { type: "file" };
import i11 from "./samsung-mail-dark-mobile-sm.jpg" with { type: "file" };
import i12 from "./apple-mail-ipados-tablet-portrait.jpg" with { type: "file" };
import i13 from "./apple-mail-ipados-dark-tablet-portrait.jpg" with { type: "file" };
import i14 from "./gmail-ipados-tablet-portrait.jpg" with { type: "file" };
import i15 from "./gmail-ipados-dark-tablet-portrait.jpg" with { type: "file" };
import i16 from "./apple-mail-desktop-md.jpg" with { type: "file" };
import i17 from "./apple-mail-dark-desktop-md.jpg" with { type: "file" };
import i18 from "./gmail-web-desktop-md.jpg" with { type: "file" };
import i19 from "./outlook-web-desktop-md.jpg" with { type: "file" };
import i20 from "./outlook-web-dark-desktop-md.jpg" with { type: "file" };
import i21 from "./outlook-windows-desktop-md.jpg" with { type: "file" };
import i22 from "./outlook-windows-dark-desktop-md.jpg" with { type: "file" };
import i23 from "./outlook-new-windows-desktop-md.jpg" with { type: "file" };
import i24 from "./outlook-new-windows-dark-desktop-md.jpg" with { type: "file" };
import i25 from "./yahoo-web-desktop-md.jpg" with { type: "file" };
import i26 from "./thunderbird-desktop-md.jpg" with { type: "file" };

/** Screenshot file name → its path (on disk, or in the compiled binary). */
export const IMAGE_PATHS: Record<string, string> = {
  "apple-mail-ios-mobile-sm.jpg": i0,
  "apple-mail-ios-dark-mobile-sm.jpg": i1,
  "gmail-ios-mobile-sm.jpg": i2,
  "gmail-ios-dark-mobile-sm.jpg": i3,
  "gmail-android-mobile-sm.jpg": i4,
  "gmail-android-dark-mobile-sm.jpg": i5,
  "outlook-ios-mobile-sm.jpg": i6,
  "outlook-ios-dark-mobile-sm.jpg": i7,
  "gmail-android-non-google-mobile-sm.jpg": i8,
  "gmail-android-non-google-dark-mobile-sm.jpg": i9,
  "samsung-mail-mobile-sm.jpg": i10,
  "samsung-mail-dark-mobile-sm.jpg": i11,
  "apple-mail-ipados-tablet-portrait.jpg": i12,
  "apple-mail-ipados-dark-tablet-portrait.jpg": i13,
  "gmail-ipados-tablet-portrait.jpg": i14,
  "gmail-ipados-dark-tablet-portrait.jpg": i15,
  "apple-mail-desktop-md.jpg": i16,
  "apple-mail-dark-desktop-md.jpg": i17,
  "gmail-web-desktop-md.jpg": i18,
  "outlook-web-desktop-md.jpg": i19,
  "outlook-web-dark-desktop-md.jpg": i20,
  "outlook-windows-desktop-md.jpg": i21,
  "outlook-windows-dark-desktop-md.jpg": i22,
  "outlook-new-windows-desktop-md.jpg": i23,
  "outlook-new-windows-dark-desktop-md.jpg": i24,
  "yahoo-web-desktop-md.jpg": i25,
  "thunderbird-desktop-md.jpg": i26,
};
