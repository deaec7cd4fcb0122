import type { DocumentKind } from '@portal/contract';

/**
 * The demo operator's legal documents (issue 32): readable texts a GNSS correction service could publish, for the
 * fictional Meridian RTK B.V. of the demo seed. An operator publishes their own under Admin → Settings → Documents.
 */
export const DEMO_DOCUMENTS: Record<DocumentKind, { title: string; body: string }> = {
  terms: {
    title: 'Terms and conditions',
    body: `These terms apply to the GNSS correction service of **Meridian RTK B.V.**, Kanaalweg 17, 2628 EB Delft, the Netherlands (VAT NL859327614B01), "we" below. This portal is a demonstration: the company is fictional and no real service is sold under these terms.

# 1. The service

1. We provide real-time kinematic (RTK) correction data in RTCM 3 over NTRIP from the reference stations listed on the coverage map, and RINEX observation files from our archive for post-processing.
2. Corrections refer to the reference frame stated for each network. Converting positions to a national grid or height system (for example RD/NAP) is your responsibility.
3. The positions you obtain depend on your receiver, antenna, sky view, ionosphere and distance to the station. We do not guarantee any accuracy for a particular measurement.

# 2. Your account

1. You need an account to buy access. Keep your password and the passwords of your NTRIP accounts secret; everything done with them counts as done by you.
2. You must be at least 18 years old and give true details. If you act for a company, you confirm that you may bind it.
3. An organisation's owners and admins decide who may use its subscriptions and NTRIP accounts.

# 3. Subscriptions and tokens

1. A subscription gives access to the networks it names for its period and renews automatically until you cancel it. Cancelling stops the next renewal; the current period stays paid and usable.
2. Tokens are prepaid credits. You spend them to activate a network for a number of days or to buy RINEX hours; the price in tokens is shown before you confirm. Tokens do not expire and are not exchanged for money, except as the law requires.
3. Prices are shown in euros including VAT unless stated otherwise. Businesses in another EU member state whose VAT number we have verified are invoiced without VAT (reverse charge).
4. You receive an invoice for every payment. Refunds are made to the original means of payment, with a credit note.

# 4. Fair use

1. Corrections are for your own surveying, construction, agriculture or navigation work. You may not resell, redistribute or stream them to third parties.
2. One NTRIP account is used by one rover at a time unless your subscription allows more.
3. Do not attempt to access accounts, stations or systems that are not yours, or to disrupt the service. We may suspend accounts that do.

# 5. Availability

1. We aim for continuous availability, but stations, networks and the internet can fail, and we carry out maintenance. A station that is offline is shown as such on the map and in the sourcetable.
2. Where the service is unavailable for more than 24 hours in a row through our fault, we extend your subscription or return the tokens spent for that time on request.

# 6. Liability

1. Always check the positions you measure against known control points before relying on them. You remain responsible for the results of your work.
2. Our liability is limited to direct damage and to the amount you paid us in the 12 months before the event, except for damage caused by our intent or gross negligence.
3. We are not liable for indirect or consequential damage such as lost profit, lost data or rework.

# 7. Personal data

We process personal data as described in our privacy policy. For organisations that let their staff use the service we act as processor under our data processing agreement.

# 8. Changes and ending

1. We may change these terms. A new version is published in the portal and you are asked to accept it at your next visit; you may end your account instead.
2. You may delete your account at any time under Settings. Tokens left unused are then lost; active subscriptions end at the end of their period.
3. Dutch law applies. Disputes go to the competent court in The Hague, unless consumer law gives you another court.

# 9. Contact

Questions about these terms: support@meridian-rtk.example, or the Help page of this portal.
`,
  },
  privacy: {
    title: 'Privacy policy',
    body: `**Meridian RTK B.V.**, Kanaalweg 17, 2628 EB Delft, the Netherlands, is the controller of the personal data described here. This portal is a demonstration: the company is fictional.

# What we collect and why

- **Account:** e-mail address, name, and the password held by our sign-in provider, to run your account and log you in (contract).
- **Billing details:** company, address and VAT number, for invoices and the right VAT (contract, legal obligation).
- **Payments:** amount, date and the last digits of the card, for payments, refunds and bookkeeping (contract, legal obligation).
- **NTRIP connections:** account, time, duration, IP address and the positions (NMEA GGA) your rover sends, to deliver corrections from the nearest station, troubleshoot and keep use fair (contract, legitimate interest).
- **Support messages:** to answer you (contract, legitimate interest).
- **Security logs:** sign-ins, failed logins and admin actions, to protect accounts and the service (legitimate interest).

We do not sell personal data and do not use it for advertising profiles. Analytics on the website run only with your consent.

# How long we keep it

- Account data: while you have an account, and 30 days after you delete it.
- Invoices and payment records: 7 years, as Dutch tax law requires.
- NTRIP connection records and rover positions: 90 days.
- Security logs: 1 year.

# Who receives it

- Our sign-in provider (Google Firebase Authentication) for accounts and passwords.
- Our payment provider (Stripe) for card payments.
- Our hosting provider in the EU for the servers and backups.

Each of them processes the data for us under a data processing agreement. Where data leaves the European Economic Area, this is covered by the European Commission's standard contractual clauses or an adequacy decision.

# Your rights

You may ask us for a copy of your data, to correct or delete it, to restrict its use, to object to processing based on legitimate interest, and to receive it in a machine-readable form. Write to privacy@meridian-rtk.example; we answer within one month. You can also delete your account yourself under Settings.

If you think we handle your data wrongly, you may complain to the Dutch Data Protection Authority (Autoriteit Persoonsgegevens).

# Security

Connections are encrypted, passwords of NTRIP accounts are stored only as hashes, and access to customer data is limited to staff who need it and is logged.
`,
  },
  dpa: {
    title: 'Data processing agreement',
    body: `This agreement applies when an organisation (the **controller**) lets its staff or contractors use the GNSS correction service of **Meridian RTK B.V.**, Delft, the Netherlands (the **processor**). It forms part of the terms and conditions and meets Article 28 of the General Data Protection Regulation (GDPR). This portal is a demonstration: the company is fictional.

# 1. Subject and duration

The processor processes personal data only to provide the correction service to the controller's users, for as long as the controller has an organisation in the portal.

# 2. The data

- **Data subjects:** the controller's members, invitees and the people using its NTRIP accounts.
- **Personal data:** names, e-mail addresses, NTRIP account names, connection times, IP addresses and the rover positions (NMEA GGA) sent to the caster.
- **Purpose:** authenticating rovers, choosing the nearest station, delivering corrections, showing usage to the controller, troubleshooting.

# 3. Obligations of the processor

1. Process the data only on the controller's documented instructions, which are these terms and the controller's settings in the portal.
2. Ensure that staff with access are bound to confidentiality.
3. Take appropriate technical and organisational measures: encryption in transit, hashed credentials, access limited to those who need it, logged admin actions, backups in the EU.
4. Notify the controller without undue delay, and within 48 hours, after becoming aware of a personal data breach affecting its data, with what is known about it.
5. Help the controller answer requests of data subjects and with data protection impact assessments where needed.
6. Delete the controller's personal data within 30 days after the organisation is deleted, except where law requires keeping it (invoices).
7. Make available the information needed to show compliance, and allow audits by the controller or an auditor it appoints, at most once a year and with 30 days' notice.

# 4. Sub-processors

The controller authorises these sub-processors: Google (Firebase Authentication, sign-in), Stripe (payments), and the processor's hosting provider in the EU. The processor informs the controller of intended changes at least 30 days in advance by e-mail; the controller may object and end the agreement.

# 5. Transfers

Personal data is transferred outside the European Economic Area only with an adequacy decision or the European Commission's standard contractual clauses in place.

# 6. Liability and law

Liability follows the terms and conditions. Dutch law applies; disputes go to the competent court in The Hague.

Contact for this agreement: privacy@meridian-rtk.example.
`,
  },
};
