export interface LegalSection {
  heading: string;
  paragraphs: string[];
}

export interface LegalDocument {
  title: string;
  effective: string;
  intro: string;
  sections: LegalSection[];
}
