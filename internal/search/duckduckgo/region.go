package duckduckgo

import "strings"

// regions maps ISO 3166-1 alpha-2 countries to DuckDuckGo's kl region
// codes, default first; countries with several languages list one code
// per language. DuckDuckGo's own country codes differ from ISO in places
// (United Kingdom is "uk", Slovenia "sl").
var regions = map[string][]string{
	"AR": {"ar-es"}, "AT": {"at-de"}, "AU": {"au-en"}, "BE": {"be-fr", "be-nl"},
	"BG": {"bg-bg"}, "BR": {"br-pt"}, "CA": {"ca-en", "ca-fr"}, "CH": {"ch-de", "ch-fr", "ch-it"},
	"CL": {"cl-es"}, "CN": {"cn-zh"}, "CO": {"co-es"}, "CZ": {"cz-cs"},
	"DE": {"de-de"}, "DK": {"dk-da"}, "EE": {"ee-et"}, "ES": {"es-es", "ct-ca"},
	"FI": {"fi-fi"}, "FR": {"fr-fr"}, "GB": {"uk-en"}, "GR": {"gr-el"},
	"HK": {"hk-tzh"}, "HR": {"hr-hr"}, "HU": {"hu-hu"}, "ID": {"id-id", "id-en"},
	"IE": {"ie-en"}, "IL": {"il-he"}, "IN": {"in-en"}, "IT": {"it-it"},
	"JP": {"jp-jp"}, "KR": {"kr-kr"}, "LT": {"lt-lt"}, "LV": {"lv-lv"},
	"MX": {"mx-es"}, "MY": {"my-ms", "my-en"}, "NL": {"nl-nl"}, "NO": {"no-no"},
	"NZ": {"nz-en"}, "PE": {"pe-es"}, "PH": {"ph-en", "ph-tl"}, "PL": {"pl-pl"},
	"PT": {"pt-pt"}, "RO": {"ro-ro"}, "RU": {"ru-ru"}, "SE": {"se-sv"},
	"SG": {"sg-en"}, "SI": {"sl-sl"}, "SK": {"sk-sk"}, "TH": {"th-th"},
	"TR": {"tr-tr"}, "TW": {"tw-tzh"}, "UA": {"ua-uk"}, "US": {"us-en", "ue-es"},
	"VE": {"ve-es"}, "VN": {"vn-vi"}, "ZA": {"za-en"},
}

// region picks the kl code for a country and language: the country's
// code for that language when it has one, else its default. Without a
// known country it returns "" (DuckDuckGo's default, "wt-wt", no region).
func region(country, lang string) string {
	codes := regions[country]
	if len(codes) == 0 {
		return ""
	}
	for _, c := range codes {
		if lang != "" && strings.HasSuffix(c, "-"+lang) {
			return c
		}
	}
	return codes[0]
}
