/**
 * Strings of the effective-source notice (issue 47), in their own namespace `source`: they load
 * with the Player screen, not with the first bundle (its size budget), and are added to the app's
 * i18n instance by the notice itself.
 */
export const SOURCE_NAMESPACE = 'source';

export const sourceDe = {
  title: {
    label_stream: 'Du hörst den Stream des Labels',
    preview: 'Du hörst 30-Sekunden-Vorschauen',
    none: 'Hier kann keine Musik spielen',
  },
  whyLabel: 'Warum?',
  why: {
    free_tier: 'Spotify spielt im Browser nur mit Premium, und dein Konto ist Spotify Free.',
    no_subscription: 'Dein Apple-Music-Konto hat kein aktives Abo.',
    no_sdk: 'Der Player deines Musikdienstes ist in diesem Browser nicht verfügbar.',
    no_eme: 'Diesem Browser fehlt der Kopierschutz (EME), den dein Musikdienst braucht.',
    ios_volume: 'Spotify spielt nicht in Safari auf iPhone und iPad.',
    no_login: 'Du bist ohne Musikdienst angemeldet.',
  },
  hint: {
    free_tier: 'Mit Spotify Premium hörst du die Party über dein eigenes Konto.',
    no_subscription: 'Mit einem Apple-Music-Abo hörst du die Party über dein eigenes Konto.',
    no_sdk: 'Öffne die Party in einem aktuellen Browser am Computer, um dein eigenes Konto zu nutzen.',
    no_eme: 'Öffne die Party in einem aktuellen Browser am Computer, um dein eigenes Konto zu nutzen.',
    ios_volume: 'Öffne die Party am Computer, um dein eigenes Konto zu nutzen.',
    no_login: 'Melde dich mit Spotify oder Apple Music an, um über dein Konto zu hören.',
  },
  previewEnded: 'Die Vorschau dieses Songs ist zu Ende. Der nächste Song startet eine neue.',
};

export const sourceEn: typeof sourceDe = {
  title: {
    label_stream: "You're listening to the label's stream",
    preview: "You're hearing 30-second previews",
    none: 'No music can play here',
  },
  whyLabel: 'Why?',
  why: {
    free_tier: 'Spotify plays in the browser only with Premium, and your account is Spotify Free.',
    no_subscription: 'Your Apple Music account has no active subscription.',
    no_sdk: "Your music service's player is not available in this browser.",
    no_eme: 'This browser lacks the copy protection (EME) your music service needs.',
    ios_volume: 'Spotify does not play in Safari on iPhone and iPad.',
    no_login: 'You joined without a music service.',
  },
  hint: {
    free_tier: 'With Spotify Premium you hear the party through your own account.',
    no_subscription: 'With an Apple Music subscription you hear the party through your own account.',
    no_sdk: 'Open the party in a current browser on a computer to use your own account.',
    no_eme: 'Open the party in a current browser on a computer to use your own account.',
    ios_volume: 'Open the party on a computer to use your own account.',
    no_login: 'Log in with Spotify or Apple Music to listen through your account.',
  },
  previewEnded: "This track's preview has ended. The next track starts a new one.",
};
