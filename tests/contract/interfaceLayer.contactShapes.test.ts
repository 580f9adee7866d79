// The interface layer (generated/openapi.interface.json) for contact details, urls, files and
// locations: the text names `contactinfo` ("contact details and URLs"), `files` ("attached
// media") and `location` (an `address` with `city` and `zipcode`, and `xcoordinate`/`ycoordinate`
// as strings) but not their fields, so a vendor conforms with our old shape and with the
// operator's model alike, while the full layer holds our decisions (DEC-ITEM-160 … DEC-ITEM-163).

import { describe, expect, it } from 'vitest';
import { createValidatorFactory, loadSpec, SPEC_FILES } from '../../spec/index.ts';

const layers = {
  full: createValidatorFactory(loadSpec(SPEC_FILES.json).document),
  interface: createValidatorFactory(loadSpec(SPEC_FILES.interface).document),
};
const valid = (layer: keyof typeof layers, schema: string, value: unknown) =>
  layers[layer](`/components/schemas/${schema}`)(value);

const location = (fields: Record<string, unknown>) => ({
  id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  trcid: 'trc-contact-shapes',
  entitytype: 'LOCATIE',
  creationdate: '2026-11-18T13:47:20.661Z',
  ...fields,
});

/** This description's shapes before issue 27. */
const OLD = location({
  contactinfo: {
    mail: [{ email: 'info@example.nl', descriptioncode: 'info' }],
    phones: [{ number: '+31 20 000 0000' }],
    urls: [{ url: 'https://example.nl/tickets', urlServiceType: 'tickets' }],
  },
  files: [{ hlink: 'https://example.nl/a.svg', filetype: 'svg', mediatype: 'document', title: 'Gevel' }],
  location: { address: { city: 'Amsterdam', zipcode: '1071 XX' }, xcoordinate: '4.885278', ycoordinate: '52.359997' },
});

/** The operator's model's shapes (ndtrc_model Contactinfo, Url, File, Location, Address). */
const MODEL = location({
  locationRef: 'trc-elders',
  contactinfo: {
    label: 'Kassa',
    mail: { email: 'info@example.nl', reservations: true, descriptionTranslations: [{ lang: 'en', label: 'Info' }] },
    phone: { number: '+31 20 000 0000' },
    fax: { number: '+31 20 000 0001' },
    address: { city: 'Amsterdam' },
    urls: [{ url: 'https://example.nl/', urlServiceType: 'travelbase', targetLanguage: 'nl', reservations: false }],
  },
  files: [
    {
      trcid: 'trc-file',
      hlink: 'https://example.nl/route.gpx',
      filetype: 'gpx',
      mediatype: 'roadmap',
      copyright: 'Gemeente',
      targetLanguage: 'nl',
      title: { label: 'Route', titleTranslations: [{ lang: 'en', label: 'Route' }] },
    },
  ],
  location: {
    address: {
      main: true,
      title: 'Rijksmuseum',
      city: 'Amsterdam',
      citytrcid: 'city-0363',
      province: 'Noord-Holland',
      gisCoordinates: [{ xcoordinate: '4.885278', ycoordinate: '52.359997', label: 'Ingang' }],
    },
    label: 'Museumplein',
    locationItem: { trcid: 'trc-elders', text: 'Elders' },
    venueItem: { id: 'x' },
  },
});

describe('the interface layer for contact details, urls, files and locations', () => {
  it("when an item has this description's old contact, file and location shapes, then the interface layer accepts it and the full one does not", () => {
    expect(valid('interface', 'Location', OLD)).toBe(true);
    expect(valid('full', 'Location', OLD)).toBe(false);
  });

  it("when an item has the operator's model's shapes, then both layers accept it", () => {
    expect(valid('interface', 'Location', MODEL)).toBe(true);
    expect(valid('full', 'Location', MODEL)).toBe(true);
  });

  it('when the coordinates are no strings, then the interface layer refuses them, on location and in the points alike', () => {
    const numbers = { xcoordinate: 4.9, ycoordinate: 52.3 };
    expect(valid('interface', 'Location', location({ location: numbers }))).toBe(false);
    expect(valid('interface', 'Location', location({ location: { address: { gisCoordinates: [numbers] } } }))).toBe(
      false,
    );
  });

  it('when the layer is generated, then each relaxation names its decision', () => {
    const schemas = loadSpec(SPEC_FILES.interface).document.components.schemas as Record<
      string,
      { 'x-relaxed'?: string[] }
    >;
    expect(schemas.ContactInfo?.['x-relaxed']).toEqual(['DEC-ITEM-160', 'DEC-ITEM-161']);
    expect(schemas.File?.['x-relaxed']).toEqual(['DEC-ITEM-162']);
    expect(schemas.FileType?.['x-relaxed']).toEqual(['DEC-ITEM-162']);
    expect(schemas.FileMediaType?.['x-relaxed']).toEqual(['DEC-ITEM-162']);
    expect(schemas.UrlServiceType?.['x-relaxed']).toEqual(['DEC-ITEM-161']);
    expect(schemas.ItemLocation?.['x-relaxed']).toEqual(['DEC-ITEM-012', 'DEC-ITEM-163']);
    expect(schemas.Address?.['x-relaxed']).toEqual(['DEC-ITEM-163']);
  });
});
