package tavily

// countryNames maps ISO 3166-1 alpha-2 codes to the lowercase English
// names Tavily's country parameter accepts. Countries Tavily does not
// list are left out; the query then runs unlocalised.
var countryNames = map[string]string{
	"AR": "argentina", "AT": "austria", "AU": "australia", "BD": "bangladesh",
	"BE": "belgium", "BR": "brazil", "CA": "canada", "CH": "switzerland",
	"CL": "chile", "CN": "china", "CO": "colombia", "CZ": "czech republic",
	"DE": "germany", "DK": "denmark", "EG": "egypt", "ES": "spain",
	"FI": "finland", "FR": "france", "GB": "united kingdom", "GR": "greece",
	"HK": "hong kong", "HU": "hungary", "ID": "indonesia", "IE": "ireland",
	"IL": "israel", "IN": "india", "IT": "italy", "JP": "japan",
	"KE": "kenya", "KR": "south korea", "MX": "mexico", "MY": "malaysia",
	"NG": "nigeria", "NL": "netherlands", "NO": "norway", "NZ": "new zealand",
	"PE": "peru", "PH": "philippines", "PK": "pakistan", "PL": "poland",
	"PT": "portugal", "RO": "romania", "RU": "russia", "SA": "saudi arabia",
	"SE": "sweden", "SG": "singapore", "TH": "thailand", "TR": "turkey",
	"TW": "taiwan", "UA": "ukraine", "AE": "united arab emirates",
	"US": "united states", "VN": "vietnam", "ZA": "south africa",
}
