// The browser's time zone, for the server to show dates in until the person chooses one
// (matches/notices/zones.py reads the cookie).
(function () {
  var zone;
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch (error) {
    return;
  }
  if (!zone || !/^[A-Za-z0-9/_+-]+$/.test(zone) || document.cookie.indexOf("bbweb_tz=" + zone) !== -1) {
    return;
  }
  document.cookie = "bbweb_tz=" + zone + "; path=/; max-age=31536000; SameSite=Lax";
})();
