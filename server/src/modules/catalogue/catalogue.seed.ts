import { randomUUID } from 'node:crypto';
import type { ReferenceFrame } from '@portal/contract';
import type { Insertable } from 'kysely';
import type { Database } from '../../db/client.ts';
import type { FeedsTable, StationsTable } from '../../db/schema.ts';
import { processFeedSecretKey } from '../../feed-secret-key.ts';
import { hashPassword } from '../../shared/password-hash.ts';
import { createFeedCipher } from './feed-secrets.ts';

/** Source password of every seeded push feed, printed nowhere else: demo base stations push with it. */
export const DEMO_SOURCE_PASSWORD = 'demo-source-2026';

interface DemoNetwork {
  slug: string;
  name: string;
  description: string;
  /** The Dutch texts a Dutch reader gets (issue 22). */
  nl: { name: string; description: string; region: string };
  operator: string;
  region: string;
  tokenPricePerDay: number;
  /** The frame its corrections are in (issue 32). */
  referenceFrame: ReferenceFrame;
  feedKind: 'push' | 'pull';
  /** Towns as `name|latitude|longitude|ISO alpha-3`; each gets a few stations around it. */
  towns: string[];
}

const NETWORKS: DemoNetwork[] = [
  {
    slug: 'dutch-rtk',
    name: 'Dutch RTK Network',
    description: 'Country-wide RTK network of the Netherlands, about 30 km between reference stations.',
    nl: {
      name: 'Nederlands RTK-netwerk',
      description: 'Landelijk RTK-netwerk van Nederland, met ongeveer 30 km tussen de referentiestations.',
      region: 'Nederland',
    },
    operator: 'GNSS Portal B.V.',
    region: 'Netherlands',
    tokenPricePerDay: 10,
    referenceFrame: {
      frame: 'ETRS89',
      realisation: 'ETRF2000',
      epoch: 2010.5,
      nationalGrid: 'RD/NAP (RDNAPTRANS 2018)',
    },
    feedKind: 'push',
    towns: [
      'Amsterdam|52.370|4.895|NLD',
      'Rotterdam|51.922|4.479|NLD',
      'Den Haag|52.070|4.300|NLD',
      'Utrecht|52.091|5.122|NLD',
      'Eindhoven|51.441|5.470|NLD',
      'Groningen|53.219|6.567|NLD',
      'Leeuwarden|53.201|5.799|NLD',
      'Zwolle|52.516|6.083|NLD',
      'Enschede|52.221|6.894|NLD',
      'Arnhem|51.985|5.899|NLD',
      'Nijmegen|51.842|5.853|NLD',
      'Maastricht|50.851|5.691|NLD',
      'Breda|51.589|4.776|NLD',
      'Middelburg|51.499|3.611|NLD',
      'Den Helder|52.959|4.760|NLD',
      'Lelystad|52.518|5.471|NLD',
      'Assen|52.993|6.564|NLD',
      'Venlo|51.370|6.172|NLD',
      'Alkmaar|52.632|4.748|NLD',
      'Deventer|52.255|6.164|NLD',
    ],
  },
  {
    slug: 'central-europe-partner',
    name: 'Central Europe Partner Network',
    description: 'Reference stations of partner operators in Germany, the Alps, Benelux, France and Poland.',
    nl: {
      name: 'Centraal-Europees partnernetwerk',
      description: 'Referentiestations van partners in Duitsland, de Alpen, de Benelux, Frankrijk en Polen.',
      region: 'Centraal-Europa',
    },
    operator: 'Partner consortium',
    region: 'Central Europe',
    tokenPricePerDay: 14,
    referenceFrame: { frame: 'ETRS89', realisation: 'ETRF2000', epoch: null, nationalGrid: '' },
    feedKind: 'pull',
    towns: [
      'Berlin|52.520|13.405|DEU',
      'Hamburg|53.551|9.994|DEU',
      'Muenchen|48.137|11.575|DEU',
      'Koeln|50.938|6.960|DEU',
      'Frankfurt|50.110|8.682|DEU',
      'Stuttgart|48.776|9.183|DEU',
      'Dresden|51.050|13.738|DEU',
      'Hannover|52.376|9.732|DEU',
      'Nuernberg|49.452|11.077|DEU',
      'Bremen|53.079|8.802|DEU',
      'Leipzig|51.340|12.375|DEU',
      'Kiel|54.323|10.123|DEU',
      'Rostock|54.092|12.099|DEU',
      'Freiburg|47.999|7.842|DEU',
      'Wien|48.208|16.373|AUT',
      'Graz|47.071|15.439|AUT',
      'Innsbruck|47.269|11.404|AUT',
      'Linz|48.306|14.286|AUT',
      'Zuerich|47.377|8.541|CHE',
      'Bern|46.948|7.447|CHE',
      'Geneve|46.204|6.143|CHE',
      'Praha|50.075|14.437|CZE',
      'Brno|49.195|16.607|CZE',
      'Warszawa|52.229|21.012|POL',
      'Krakow|50.064|19.945|POL',
      'Poznan|52.406|16.925|POL',
      'Gdansk|54.352|18.646|POL',
      'Wroclaw|51.107|17.038|POL',
      'Bruxelles|50.850|4.352|BEL',
      'Antwerpen|51.219|4.402|BEL',
      'Liege|50.633|5.567|BEL',
      'Luxembourg|49.611|6.130|LUX',
      'Paris|48.857|2.352|FRA',
      'Lille|50.629|3.057|FRA',
      'Strasbourg|48.573|7.752|FRA',
      'Lyon|45.764|4.836|FRA',
      'Nantes|47.218|-1.554|FRA',
      'Bordeaux|44.838|-0.579|FRA',
      'Toulouse|43.605|1.444|FRA',
      'Marseille|43.296|5.370|FRA',
    ],
  },
  {
    slug: 'nordic-rtk',
    name: 'Nordic RTK',
    description: 'Stations across Denmark, Norway, Sweden, Finland and the Baltics, including the Arctic coast.',
    nl: {
      name: 'Noord-Europees RTK',
      description:
        'Stations in Denemarken, Noorwegen, Zweden, Finland en de Baltische staten, tot aan de Noordpoolkust.',
      region: 'Noord-Europa',
    },
    operator: 'Nordic Positioning AB',
    region: 'Nordics',
    tokenPricePerDay: 12,
    referenceFrame: { frame: 'ITRF', realisation: 'ITRF2020', epoch: null, nationalGrid: '' },
    feedKind: 'push',
    towns: [
      'Kobenhavn|55.676|12.568|DNK',
      'Aarhus|56.163|10.204|DNK',
      'Aalborg|57.048|9.921|DNK',
      'Odense|55.403|10.402|DNK',
      'Oslo|59.914|10.752|NOR',
      'Bergen|60.393|5.324|NOR',
      'Trondheim|63.431|10.395|NOR',
      'Stavanger|58.970|5.733|NOR',
      'Bodo|67.280|14.405|NOR',
      'Tromso|69.649|18.956|NOR',
      'Kirkenes|69.727|30.045|NOR',
      'Stockholm|59.329|18.069|SWE',
      'Goteborg|57.709|11.975|SWE',
      'Malmo|55.605|13.004|SWE',
      'Uppsala|59.859|17.639|SWE',
      'Sundsvall|62.391|17.307|SWE',
      'Umea|63.826|20.263|SWE',
      'Lulea|65.584|22.155|SWE',
      'Kiruna|67.856|20.225|SWE',
      'Ostersund|63.179|14.636|SWE',
      'Helsinki|60.170|24.938|FIN',
      'Tampere|61.498|23.761|FIN',
      'Turku|60.452|22.267|FIN',
      'Oulu|65.012|25.465|FIN',
      'Kuopio|62.892|27.678|FIN',
      'Rovaniemi|66.503|25.729|FIN',
      'Tallinn|59.437|24.754|EST',
      'Tartu|58.378|26.729|EST',
      'Riga|56.950|24.105|LVA',
      'Vilnius|54.687|25.280|LTU',
    ],
  },
  {
    slug: 'southern-europe-rtk',
    name: 'Southern Europe RTK',
    description: 'Iberia, Italy and Greece, for agriculture and construction in the south.',
    nl: {
      name: 'Zuid-Europees RTK',
      description: 'Iberië, Italië en Griekenland, voor landbouw en bouw in het zuiden.',
      region: 'Zuid-Europa',
    },
    operator: 'Mediterranean GNSS S.L.',
    region: 'Southern Europe',
    tokenPricePerDay: 9,
    referenceFrame: { frame: 'ETRS89', realisation: 'ETRF2000', epoch: null, nationalGrid: '' },
    feedKind: 'pull',
    towns: [
      'Madrid|40.417|-3.704|ESP',
      'Barcelona|41.387|2.168|ESP',
      'Valencia|39.470|-0.376|ESP',
      'Sevilla|37.389|-5.984|ESP',
      'Zaragoza|41.649|-0.889|ESP',
      'Bilbao|43.263|-2.935|ESP',
      'Lisboa|38.722|-9.139|PRT',
      'Porto|41.158|-8.629|PRT',
      'Roma|41.903|12.496|ITA',
      'Milano|45.464|9.190|ITA',
      'Napoli|40.852|14.268|ITA',
      'Torino|45.070|7.687|ITA',
      'Bologna|44.495|11.343|ITA',
      'Firenze|43.770|11.256|ITA',
      'Bari|41.117|16.872|ITA',
      'Palermo|38.116|13.361|ITA',
      'Athina|37.984|23.728|GRC',
      'Thessaloniki|40.640|22.944|GRC',
    ],
  },
];

/** Receivers with an antenna that goes with them and the messages such a base typically sends. */
const HARDWARE = [
  {
    receiver: 'SEPT POLARX5',
    antenna: 'SEPCHOKE_B3E6 SPKE',
    details: '1006(10),1008(10),1013(10),1019,1020,1033(10),1042,1045,1046,1077(1),1087(1),1097(1),1127(1),1230(10)',
    nav: 'GPS+GLO+GAL+BDS',
  },
  {
    receiver: 'TRIMBLE ALLOY',
    antenna: 'TRM115000.00 NONE',
    details: '1005(10),1008(10),1019,1020,1033(10),1044,1045,1046,1077(1),1087(1),1097(1),1117(1),1127(1),1230(10)',
    nav: 'GPS+GLO+GAL+BDS+QZS',
  },
  {
    receiver: 'LEICA GR50',
    antenna: 'LEIAR25.R4 LEIT',
    details: '1006(10),1008(10),1033(10),1074(1),1084(1),1094(1),1124(1),1230(10)',
    nav: 'GPS+GLO+GAL+BDS',
  },
  {
    receiver: 'SEPT MOSAIC-X5',
    antenna: 'SEPVC6150L NONE',
    details: '1005(10),1033(10),1077(1),1087(1),1097(1),1127(1),1230(10)',
    nav: 'GPS+GLO+GAL+BDS',
  },
  {
    receiver: 'TRIMBLE NETR9',
    antenna: 'TRM59800.00 SCIS',
    details: '1004(1),1006(10),1008(10),1012(1),1033(10),1230(10)',
    nav: 'GPS+GLO',
  },
  {
    receiver: 'JAVAD TRE_3 DELTA',
    antenna: 'JAVRINGANT_G5T NONE',
    details: '1006(10),1008(10),1033(10),1074(1),1084(1),1094(1),1124(1)',
    nav: 'GPS+GLO+GAL+BDS',
  },
];

/** A small deterministic generator, so every fresh database gets the same demo catalogue. */
function mulberry32(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A point `km` away from (lat, lon) in the direction `bearing` (radians), on a sphere: fine at this scale. */
function offset(lat: number, lon: number, km: number, bearing: number): [number, number] {
  const dLat = (km / 6371) * Math.cos(bearing);
  const dLon = ((km / 6371) * Math.sin(bearing)) / Math.cos((lat * Math.PI) / 180);
  const round = (v: number) => Math.round(v * 1e6) / 1e6;
  return [round(lat + (dLat * 180) / Math.PI), round(lon + (dLon * 180) / Math.PI)];
}

/** RINEX 3 style names (four letters, monument and receiver digits, country), as EUREF and most networks use. */
function mountpointFor(town: string, country: string, taken: Set<string>): string {
  const letters = town
    .normalize('NFKD')
    .replace(/[^A-Za-z]/g, '')
    .toUpperCase();
  const code = letters.slice(0, 4).padEnd(4, 'X');
  for (let monument = 0; ; monument++) {
    const name = `${code}${String(monument).padStart(2, '0')}${country}0`;
    if (!taken.has(name)) {
      taken.add(name);
      return name;
    }
  }
}

function demoStations(network: DemoNetwork, networkId: string): Insertable<StationsTable>[] {
  const random = mulberry32(network.slug.length * 7919 + network.towns.length);
  const taken = new Set<string>();
  const stations: Insertable<StationsTable>[] = [];
  for (const town of network.towns) {
    const [name = '', lat = '0', lon = '0', country = 'XXX'] = town.split('|');
    const count = 3 + (random() < 0.3 ? 1 : 0);
    for (let i = 0; i < count; i++) {
      const [latitude, longitude] =
        i === 0
          ? [Number(lat), Number(lon)]
          : offset(Number(lat), Number(lon), 18 + random() * 22, random() * 2 * Math.PI);
      const hardware = HARDWARE[Math.floor(random() * HARDWARE.length)] ?? HARDWARE[0];
      // An earlier seed drew a made-up online status and last-data time per station; the two draws stay so that the
      // stations that follow keep their positions.
      random();
      random();
      stations.push({
        network_id: networkId,
        mountpoint: mountpointFor(name, country, taken),
        identifier: i === 0 ? name : `${name} ${i + 1}`,
        country,
        latitude,
        longitude,
        height_m: Math.round((country === 'NLD' ? random() * 40 - 5 : 20 + random() * 600) * 1000) / 1000,
        receiver: hardware?.receiver ?? '',
        antenna: hardware?.antenna ?? '',
        format: 'RTCM 3.3',
        format_details: hardware?.details ?? '',
        nav_system: hardware?.nav ?? 'GPS',
        carrier: 2,
        bitrate: 4000 + Math.round(random() * 80) * 100,
        // Online only once a base station sends data (issue 17).
        status: 'offline',
        last_data_at: null,
      });
    }
  }
  return stations;
}

/**
 * Idempotent demo catalogue for `npm start` on a fresh machine: four networks (a country-wide one, two partner
 * networks fed by pulling from their casters, a Nordic one) with about 350 stations across Europe and a feed per
 * station. Rows that exist are left as they are, so an operator's edits survive a restart.
 */
export async function seedDemoCatalogue(
  db: Database,
  options: { feedSecretKey?: string } = {},
): Promise<{ networks: number; stations: number }> {
  const cipher = createFeedCipher(options.feedSecretKey ?? processFeedSecretKey());
  const sourcePasswordHash = await hashPassword(DEMO_SOURCE_PASSWORD);

  for (const network of NETWORKS) {
    await db
      .insertInto('networks')
      .values({
        slug: network.slug,
        name: network.name,
        description: network.description,
        operator: network.operator,
        region: network.region,
        token_price_per_day: network.tokenPricePerDay,
        translations: JSON.stringify({ nl: network.nl }),
        reference_frame: JSON.stringify(network.referenceFrame),
      })
      .onConflict((oc) => oc.column('slug').doNothing())
      .execute();
    // A demo database seeded before frames existed gets them; one an admin has set stays as it is.
    await db
      .updateTable('networks')
      .set({ reference_frame: JSON.stringify(network.referenceFrame) })
      .where('slug', '=', network.slug)
      .where('reference_frame', 'is', null)
      .execute();
    const { id } = await db
      .selectFrom('networks')
      .select('id')
      .where('slug', '=', network.slug)
      .executeTakeFirstOrThrow();

    const stations = demoStations(network, id);
    for (let i = 0; i < stations.length; i += 200) {
      await db
        .insertInto('stations')
        .values(stations.slice(i, i + 200))
        .onConflict((oc) => oc.doNothing())
        .execute();
    }

    const withoutFeed = await db
      .selectFrom('stations')
      .leftJoin('feeds', 'feeds.station_id', 'stations.id')
      .select(['stations.id', 'stations.mountpoint'])
      .where('stations.network_id', '=', id)
      .where('feeds.id', 'is', null)
      .execute();
    const feeds: Insertable<FeedsTable>[] = withoutFeed.map((station) => {
      const feedId = randomUUID();
      const common = { id: feedId, network_id: id, station_id: station.id };
      return network.feedKind === 'push'
        ? { ...common, kind: 'push', source_password_hash: sourcePasswordHash }
        : {
            ...common,
            kind: 'pull',
            // The partner casters of the demo do not exist; the caster must not dial out until an operator
            // enters a real upstream and enables the feed.
            enabled: false,
            upstream_host: `caster.${network.slug}.example`,
            upstream_port: 2101,
            upstream_mountpoint: station.mountpoint,
            upstream_username: 'portal-relay',
            upstream_password_enc: cipher.encrypt('demo-upstream-2026', feedId),
            upstream_ntrip_version: 2,
          };
    });
    for (let i = 0; i < feeds.length; i += 200) {
      await db
        .insertInto('feeds')
        .values(feeds.slice(i, i + 200))
        .execute();
    }
  }

  const count = await db
    .selectFrom('stations')
    .innerJoin('networks', 'networks.id', 'stations.network_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(
      'networks.slug',
      'in',
      NETWORKS.map((n) => n.slug),
    )
    .executeTakeFirstOrThrow();
  return { networks: NETWORKS.length, stations: Number(count.n) };
}
