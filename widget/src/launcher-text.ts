// The launcher's label in every language the widget speaks: the only words the entry needs before
// the UI chunk (with the full catalogs) has arrived. Its keys are the widget's languages (lang.ts).
// (No sentence for when the UI cannot be loaded at all: twelve of them cost the 3 KB entry ~370 B
// gzip; element.ts offers the office's number instead.)
export const launcherText = {
  en: 'Call me back',
  uk: 'Передзвоніть мені',
  ru: 'Перезвоните мне',
  pl: 'Oddzwońcie do mnie',
  de: 'Rückruf anfordern',
  cs: 'Zavolejte mi zpět',
  ro: 'Sunați-mă înapoi',
  lt: 'Perskambinkite man',
  lv: 'Atzvaniet man',
  et: 'Helistage mulle tagasi',
  kk: 'Маған қоңырау шалыңыз',
  es: 'Llámenme',
} satisfies Record<string, string>;
